import {
  fixed64,
  bool,
  int,
  str,
  type PbEvent,
  type PbResourceSpans,
  type PbSpan,
  type PbTracesRequest,
} from './otlpProto';
import type { Rng } from './rng';
import {
  SERVICES,
  func,
  httpClient,
  httpServer,
  messaging,
  redisCommand,
  resourceAttrs,
  rpc,
  sqlQuery,
  type Service,
  type ServiceName,
  type SpanShape,
} from './services';

/**
 * Realistic traces of 5-30 spans across the shop's six services: a browser request hits the
 * frontend, which calls checkout or catalog over HTTP; checkout calls cart and payment over gRPC
 * and publishes to Kafka, where shipping consumes. Each span carries 10-16 attributes of its own
 * plus 10 resource attributes. About 2% of spans fail with an exception event, about 3% carry a
 * log event. Durations are log-normal and children fit inside their parents.
 */
const ERROR_RATE = 0.02;
const LOG_EVENT_RATE = 0.03;

interface GeneratedSpan {
  service: Service;
  host: string;
  span: PbSpan;
}

interface TraceCtx {
  rng: Rng;
  traceId: Uint8Array;
  left: number;
  out: GeneratedSpan[];
  /** One host per service per trace, like one instance serving the call. */
  hosts: Partial<Record<ServiceName, string>>;
}

interface Window {
  start: bigint;
  durNs: number;
}

/** A child window inside the parent's: starts in its first half, ends before its end. */
function childWindow(rng: Rng, parent: Window): Window {
  const offset = parent.durNs * (0.02 + rng.next() * 0.45);
  const dur = Math.max(20_000, (parent.durNs - offset) * (0.1 + rng.next() * 0.8));
  return { start: parent.start + BigInt(Math.round(offset)), durNs: Math.round(dur) };
}

function emit(
  ctx: TraceCtx,
  svcName: ServiceName,
  parentId: Uint8Array | undefined,
  w: Window,
  shape: SpanShape,
): Uint8Array {
  const { rng } = ctx;
  const service = SERVICES[svcName];
  const host = (ctx.hosts[svcName] ??= rng.pick(service.hosts));
  const spanId = rng.bytes(8);
  const events: PbEvent[] = [];
  let status = { code: 0, message: '' };
  if (rng.chance(ERROR_RATE)) {
    const ex = rng.pick(EXCEPTIONS);
    status = { code: 2, message: ex.message };
    events.push({
      timeUnixNano: fixed64(w.start + BigInt(Math.round(w.durNs * 0.9))),
      name: 'exception',
      attributes: [
        str('exception.type', ex.type),
        str('exception.message', ex.message),
        str('exception.stacktrace', stacktrace(rng, service, ex.type, ex.message)),
        bool('exception.escaped', rng.chance(0.5)),
      ],
    });
  } else if (rng.chance(0.3)) {
    status = { code: 1, message: '' };
  }
  if (rng.chance(LOG_EVENT_RATE)) {
    events.push({
      timeUnixNano: fixed64(w.start + BigInt(Math.round(w.durNs * 0.5))),
      name: 'log',
      attributes: [
        str('log.severity', rng.pick(['INFO', 'WARN', 'DEBUG'])),
        str(
          'log.message',
          `retrying request ${rng.hex(8)} after ${rng.int(1, 5)} attempts (backoff ${rng.int(10, 900)}ms)`,
        ),
        int('retry.attempt', rng.int(1, 5)),
      ],
    });
  }
  ctx.out.push({
    service,
    host,
    span: {
      traceId: ctx.traceId,
      spanId,
      parentSpanId: parentId,
      name: shape.name,
      kind: shape.kind,
      startTimeUnixNano: fixed64(w.start),
      endTimeUnixNano: fixed64(w.start + BigInt(w.durNs)),
      attributes: shape.attrs,
      events,
      status,
    },
  });
  ctx.left--;
  return spanId;
}

const ROUTES = [
  { route: '/api/checkout', method: 'POST', next: 'checkout' as const },
  { route: '/api/cart/items', method: 'POST', next: 'checkout' as const },
  { route: '/api/products/:id', method: 'GET', next: 'catalog' as const },
  { route: '/api/products', method: 'GET', next: 'catalog' as const },
  { route: '/api/recommendations', method: 'GET', next: 'catalog' as const },
];

function frontend(ctx: TraceCtx, w: Window): void {
  const { rng } = ctx;
  const r = rng.pick(ROUTES);
  const target = r.route.replace(':id', rng.hex(10).toUpperCase());
  const root = emit(
    ctx,
    'frontend',
    undefined,
    w,
    httpServer(rng, r.route, target, r.method, rng.chance(0.03) ? 500 : 200),
  );
  if (ctx.left > 0 && rng.chance(0.5))
    emit(ctx, 'frontend', root, childWindow(rng, w), func(rng, SERVICES.frontend, 'session.load'));
  for (let calls = 0; ctx.left > 0 && calls < 6; calls++) {
    const next = calls === 0 ? r.next : rng.pick(['checkout', 'catalog'] as const);
    const cw = childWindow(rng, w);
    const path = next === 'checkout' ? '/checkout/v1/orders' : `/catalog/v1/products/${rng.int(1, 9000)}`;
    const client = emit(
      ctx,
      'frontend',
      root,
      cw,
      httpClient(rng, next, path, next === 'checkout' ? 'POST' : 'GET', 200),
    );
    if (ctx.left <= 0) break;
    if (next === 'checkout') checkout(ctx, client, childWindow(rng, cw), path);
    else catalog(ctx, client, childWindow(rng, cw), path);
  }
}

function checkout(ctx: TraceCtx, parent: Uint8Array, w: Window, path: string): void {
  const { rng } = ctx;
  const server = emit(ctx, 'checkout', parent, w, httpServer(rng, '/checkout/v1/orders', path, 'POST', 200));
  if (ctx.left > 0) emit(ctx, 'checkout', server, childWindow(rng, w), func(rng, SERVICES.checkout, 'cart.Validate'));
  if (ctx.left > 1) {
    const cw = childWindow(rng, w);
    const client = emit(ctx, 'checkout', server, cw, rpc(rng, 'client', 'CartService', 'GetCart', 'cart'));
    cart(ctx, client, childWindow(rng, cw));
  }
  if (ctx.left > 1) {
    const cw = childWindow(rng, w);
    const client = emit(ctx, 'checkout', server, cw, rpc(rng, 'client', 'PaymentService', 'Charge', 'payment'));
    payment(ctx, client, childWindow(rng, cw));
  }
  if (ctx.left > 1) {
    const pw = childWindow(rng, w);
    const producer = emit(ctx, 'checkout', server, pw, messaging(rng, 'producer', 'orders', 'checkout'));
    // The consumer runs after the producer, often outside the request's own window.
    const consumerStart = pw.start + BigInt(pw.durNs + Math.round(rng.logNormal(3e6, 1)));
    shipping(ctx, producer, { start: consumerStart, durNs: Math.round(rng.logNormal(15e6, 0.8)) });
  }
}

function cart(ctx: TraceCtx, parent: Uint8Array, w: Window): void {
  const { rng } = ctx;
  const server = emit(ctx, 'cart', parent, w, rpc(rng, 'server', 'CartService', 'GetCart', 'checkout'));
  for (let i = rng.int(1, 4); i > 0 && ctx.left > 0; i--)
    emit(ctx, 'cart', server, childWindow(rng, w), redisCommand(rng));
}

function payment(ctx: TraceCtx, parent: Uint8Array, w: Window): void {
  const { rng } = ctx;
  const server = emit(ctx, 'payment', parent, w, rpc(rng, 'server', 'PaymentService', 'Charge', 'checkout'));
  for (let i = rng.int(1, 3); i > 0 && ctx.left > 0; i--)
    emit(ctx, 'payment', server, childWindow(rng, w), sqlQuery(rng, 'postgresql', 'payments', 'pg-main'));
  if (ctx.left > 0)
    emit(
      ctx,
      'payment',
      server,
      childWindow(rng, w),
      httpClient(rng, 'api.stripe.com', '/v1/charges', 'POST', rng.chance(0.02) ? 402 : 200),
    );
}

function shipping(ctx: TraceCtx, parent: Uint8Array, w: Window): void {
  const { rng } = ctx;
  if (ctx.left <= 0) return;
  const consumer = emit(ctx, 'shipping', parent, w, messaging(rng, 'consumer', 'orders', 'shipping'));
  if (ctx.left > 0) emit(ctx, 'shipping', consumer, childWindow(rng, w), func(rng, SERVICES.shipping, 'rates.quote'));
  for (let i = rng.int(1, 2); i > 0 && ctx.left > 0; i--)
    emit(ctx, 'shipping', consumer, childWindow(rng, w), sqlQuery(rng, 'mysql', 'shipping', 'mysql-ship'));
}

function catalog(ctx: TraceCtx, parent: Uint8Array, w: Window, path: string): void {
  const { rng } = ctx;
  const server = emit(ctx, 'catalog', parent, w, httpServer(rng, '/catalog/v1/products/{id}', path, 'GET', 200));
  if (ctx.left > 0) emit(ctx, 'catalog', server, childWindow(rng, w), redisCommand(rng));
  for (let i = rng.int(1, 3); i > 0 && ctx.left > 0; i--)
    emit(ctx, 'catalog', server, childWindow(rng, w), sqlQuery(rng, 'postgresql', 'catalog', 'pg-catalog'));
  if (ctx.left > 0) emit(ctx, 'catalog', server, childWindow(rng, w), func(rng, SERVICES.catalog, 'pricing.Apply'));
}

/** One trace of 5-30 spans (fewer when `maxSpans` cuts it, as an exporter batch boundary does). */
export function generateTrace(rng: Rng, nowNs: bigint, maxSpans: number): GeneratedSpan[] {
  const ctx: TraceCtx = { rng, traceId: rng.bytes(16), left: Math.min(maxSpans, rng.int(5, 30)), out: [], hosts: {} };
  // Spread over the last ten minutes, as a collector's batches of recent traffic are.
  const start = nowNs - BigInt(rng.int(0, 600_000)) * 1_000_000n;
  frontend(ctx, { start, durNs: Math.round(rng.logNormal(60e6, 0.9)) });
  return ctx.out;
}

/**
 * One export request of exactly `spans` spans, grouped like a collector's batch: one
 * ResourceSpans per (service, host), one scope each.
 */
export function generateRequest(rng: Rng, nowNs: bigint, spans: number): { request: PbTracesRequest; events: number } {
  const byResource = new Map<string, GeneratedSpan[]>();
  let count = 0;
  let events = 0;
  while (count < spans) {
    for (const g of generateTrace(rng, nowNs, spans - count)) {
      const key = `${g.service.name}\0${g.host}`;
      let list = byResource.get(key);
      if (!list) byResource.set(key, (list = []));
      list.push(g);
      events += g.span.events.length;
      count++;
    }
  }
  const resourceSpans: PbResourceSpans[] = [];
  for (const list of byResource.values()) {
    const { service, host } = list[0];
    resourceSpans.push({
      resource: { attributes: resourceAttrs(service, host, 1000 + service.hosts.indexOf(host) * 17) },
      scopeSpans: [
        { scope: { name: `shop/${service.name}`, version: service.version }, spans: list.map((g) => g.span) },
      ],
    });
  }
  return { request: { resourceSpans }, events };
}

const EXCEPTIONS = [
  { type: 'TimeoutError', message: 'deadline exceeded after 2000ms waiting for upstream' },
  {
    type: 'java.sql.SQLTransientConnectionException',
    message: 'HikariPool-1 - Connection is not available, request timed out after 30000ms.',
  },
  { type: 'ValueError', message: 'invalid postcode for country DE' },
  { type: '*errors.errorString', message: 'context canceled' },
  { type: 'System.InvalidOperationException', message: 'Sequence contains no elements' },
];

function stacktrace(rng: Rng, svc: Service, type: string, message: string): string {
  const frames = rng.int(4, 12);
  let s = `${type}: ${message}\n`;
  for (let i = 0; i < frames; i++)
    s += `    at ${svc.name}.handler${rng.int(1, 40)} (/srv/${svc.name}/src/mod${rng.int(1, 30)}.js:${rng.int(1, 500)}:${rng.int(1, 80)})\n`;
  return s;
}
