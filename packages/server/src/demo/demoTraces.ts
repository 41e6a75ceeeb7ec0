import { mulberry32 } from '@lantern/shared';
/**
 * A built-in generator of realistic OTLP/JSON traces for a small shop (web frontend, catalog and
 * checkout services, PostgreSQL, Redis, a payment provider), with logs and exceptions recorded as
 * span events. Pure and seeded: the same seed and time give the same request body, so tests can
 * assert on what a newcomer sees after "Send demo data".
 */
export interface DemoOptions {
  /** End of the generated window, ms since epoch. */
  now: number;
  /** Number of traces. */
  traces: number;
  /** Spread of trace start times before `now`, ms. */
  windowMs?: number;
  seed?: number;
}

type AnyValue = { stringValue: string } | { intValue: string } | { doubleValue: number } | { boolValue: boolean };
interface KeyValue {
  key: string;
  value: AnyValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: KeyValue[];
  events?: { timeUnixNano: string; name: string; attributes: KeyValue[] }[];
  status?: { code: number; message?: string };
}

const KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

const prng = mulberry32;

const attr = (key: string, value: string | number | boolean): KeyValue => ({
  key,
  value:
    typeof value === 'string'
      ? { stringValue: value }
      : typeof value === 'boolean'
        ? { boolValue: value }
        : Number.isInteger(value)
          ? { intValue: String(value) }
          : { doubleValue: value },
});

const ns = (ms: number) => (BigInt(Math.round(ms * 1000)) * 1000n).toString();

const SERVICES = ['frontend', 'catalog', 'checkout'] as const;
type Service = (typeof SERVICES)[number];

interface Builder {
  rand: () => number;
  hex: (bytes: number) => string;
  spans: Map<Service, OtlpSpan[]>;
  traceId: string;
}

function span(
  b: Builder,
  service: Service,
  parent: OtlpSpan | undefined,
  name: string,
  kind: number,
  start: number,
  dur: number,
  attrs: KeyValue[],
  extra: Partial<OtlpSpan> = {},
): OtlpSpan {
  const s: OtlpSpan = {
    traceId: b.traceId,
    spanId: b.hex(8),
    ...(parent ? { parentSpanId: parent.spanId } : {}),
    name,
    kind,
    startTimeUnixNano: ns(start),
    endTimeUnixNano: ns(start + dur),
    attributes: attrs,
    ...extra,
  };
  b.spans.get(service)!.push(s);
  return s;
}

const PRODUCTS = ['lantern-mug', 'otel-hoodie', 'trace-stickers', 'span-socks', 'metric-cap'];
const ROUTES = [
  { method: 'GET', route: '/', weight: 3 },
  { method: 'GET', route: '/api/products/:id', weight: 4 },
  { method: 'GET', route: '/api/cart', weight: 2 },
  { method: 'POST', route: '/api/checkout', weight: 1 },
];

function pickRoute(r: number) {
  const total = ROUTES.reduce((s, x) => s + x.weight, 0);
  let at = r * total;
  for (const route of ROUTES) {
    at -= route.weight;
    if (at < 0) return route;
  }
  return ROUTES[0];
}

function dbSpan(
  b: Builder,
  service: Service,
  parent: OtlpSpan,
  start: number,
  statement: string,
  table: string,
): number {
  const dur = 0.5 + b.rand() * 8;
  span(b, service, parent, statement.split(' ')[0], KIND.client, start, dur, [
    attr('db.system', 'postgresql'),
    attr('db.name', 'shop'),
    attr('db.statement', statement),
    attr('db.sql.table', table),
    attr('db.operation', statement.split(' ')[0]),
  ]);
  return dur;
}

function redisSpan(b: Builder, service: Service, parent: OtlpSpan, start: number, key: string): number {
  const dur = 0.1 + b.rand() * 0.8;
  span(b, service, parent, 'GET', KIND.client, start, dur, [
    attr('db.system', 'redis'),
    attr('db.statement', `GET ${key}`),
    attr('db.operation', 'GET'),
  ]);
  return dur;
}

function logEvent(at: number, severity: string, message: string): NonNullable<OtlpSpan['events']>[number] {
  return {
    timeUnixNano: ns(at),
    name: 'log',
    attributes: [attr('log.severity', severity), attr('log.message', message)],
  };
}

/** One user request across the services. */
function demoTrace(b: Builder, start: number) {
  const route = pickRoute(b.rand());
  const product = PRODUCTS[Math.floor(b.rand() * PRODUCTS.length)];
  const target = route.route.replace(':id', product);
  const failed = route.route === '/api/checkout' && b.rand() < 0.3;
  const total = 20 + b.rand() * (route.route === '/api/checkout' ? 400 : 120);
  const status = failed ? 500 : 200;
  const root = span(b, 'frontend', undefined, `${route.method} ${route.route}`, KIND.server, start, total, [
    attr('http.method', route.method),
    attr('http.route', route.route),
    attr('http.target', target),
    attr('http.status_code', status),
    attr('http.user_agent', 'Mozilla/5.0 (demo)'),
    attr('enduser.id', `user-${1 + Math.floor(b.rand() * 40)}`),
  ]);
  let at = start + 1;
  at += redisSpan(b, 'frontend', root, at, `session:${b.hex(4)}`) + 0.5;
  const render = span(b, 'frontend', root, 'render page', KIND.internal, at, 2 + b.rand() * 4, [
    attr('code.function', 'renderPage'),
    attr('code.filepath', 'src/render.ts'),
  ]);
  at = Number(BigInt(render.endTimeUnixNano) / 1_000_000n) + 0.5;

  if (route.route === '/api/products/:id' || route.route === '/') {
    const client = span(b, 'frontend', root, `GET /products`, KIND.client, at, total * 0.6, [
      attr('http.method', 'GET'),
      attr('http.url', `http://catalog:8080/products/${product}`),
      attr('http.status_code', 200),
    ]);
    const server = span(b, 'catalog', client, 'GET /products/:id', KIND.server, at + 1, total * 0.55, [
      attr('http.method', 'GET'),
      attr('http.route', '/products/:id'),
      attr('http.status_code', 200),
    ]);
    let t = at + 2;
    t += redisSpan(b, 'catalog', server, t, `product:${product}`) + 0.3;
    t += dbSpan(b, 'catalog', server, t, `SELECT id, name, price FROM products WHERE slug = $1`, 'products') + 0.3;
    dbSpan(b, 'catalog', server, t, `SELECT product_id, stock FROM inventory WHERE product_id = $1`, 'inventory');
    server.events = [logEvent(at + 1.5, 'info', `product ${product} served`)];
  } else if (route.route === '/api/cart') {
    dbSpan(b, 'frontend', root, at, 'SELECT * FROM cart_items WHERE user_id = $1', 'cart_items');
  } else {
    const client = span(b, 'frontend', root, 'POST /checkout', KIND.client, at, total * 0.8, [
      attr('http.method', 'POST'),
      attr('http.url', 'http://checkout:8080/checkout'),
      attr('http.status_code', status),
    ]);
    const server = span(b, 'checkout', client, 'POST /checkout', KIND.server, at + 1, total * 0.75, [
      attr('http.method', 'POST'),
      attr('http.route', '/checkout'),
      attr('http.status_code', status),
    ]);
    let t = at + 2;
    t += dbSpan(b, 'checkout', server, t, 'INSERT INTO orders (user_id, total) VALUES ($1, $2)', 'orders') + 0.5;
    const pay = span(
      b,
      'checkout',
      server,
      'charge card',
      KIND.client,
      t,
      total * 0.4,
      [
        attr('http.method', 'POST'),
        attr('http.url', 'https://payments.example/charge'),
        attr('http.status_code', failed ? 402 : 200),
        attr('peer.service', 'payments'),
      ],
      failed ? { status: { code: 2, message: 'card declined' } } : {},
    );
    if (failed) {
      pay.events = [
        {
          timeUnixNano: ns(t + total * 0.4),
          name: 'exception',
          attributes: [
            attr('exception.type', 'PaymentDeclinedError'),
            attr('exception.message', 'card declined by issuer'),
            attr(
              'exception.stacktrace',
              'PaymentDeclinedError: card declined by issuer\n    at charge (src/payments.ts:42:11)\n    at checkout (src/checkout.ts:88:5)',
            ),
          ],
        },
      ];
      server.status = { code: 2, message: 'payment failed' };
      root.status = { code: 2, message: 'checkout failed' };
      server.events = [logEvent(t + total * 0.41, 'error', `checkout failed for order ${b.hex(4)}: card declined`)];
    } else {
      server.events = [logEvent(t + total * 0.41, 'info', `order ${b.hex(4)} paid`)];
    }
  }
}

function resource(service: Service, env: string): KeyValue[] {
  return [
    attr('service.name', service),
    attr('service.version', '1.4.2'),
    attr('deployment.environment', env),
    attr('host.name', `${service}-${env === 'production' ? 'prod' : 'stg'}-1`),
    attr('telemetry.sdk.language', 'nodejs'),
  ];
}

/** An OTLP/JSON ExportTraceServiceRequest body with `opts.traces` traces. */
export function demoTraces(opts: DemoOptions): { resourceSpans: unknown[] } {
  const rand = prng(opts.seed ?? 1);
  const hex = (bytes: number) =>
    Array.from({ length: bytes }, () =>
      Math.floor(rand() * 256)
        .toString(16)
        .padStart(2, '0'),
    ).join('');
  const windowMs = opts.windowMs ?? 10 * 60_000;
  const perEnv = new Map<string, Map<Service, OtlpSpan[]>>();
  for (let i = 0; i < opts.traces; i++) {
    const env = rand() < 0.8 ? 'production' : 'staging';
    if (!perEnv.has(env)) perEnv.set(env, new Map(SERVICES.map((s) => [s, []])));
    const b: Builder = { rand, hex, spans: perEnv.get(env)!, traceId: hex(16) };
    // Requests end at least 1 s before `now` so every span is in the past.
    demoTrace(b, opts.now - 1000 - 600 - rand() * windowMs);
  }
  const resourceSpans: unknown[] = [];
  for (const [env, byService] of perEnv) {
    for (const [service, spans] of byService) {
      if (spans.length)
        resourceSpans.push({
          resource: { attributes: resource(service, env) },
          scopeSpans: [{ scope: { name: 'lantern-demo', version: '1.0.0' }, spans }],
        });
    }
  }
  return { resourceSpans };
}

/** One deep trace of `spans` spans (timeline performance checks): a request fanning out into nested work. */
export function bigDemoTrace(
  now: number,
  spans: number,
  seed = 7,
): { traceId: string; body: { resourceSpans: unknown[] } } {
  const rand = prng(seed);
  const hex = (bytes: number) =>
    Array.from({ length: bytes }, () =>
      Math.floor(rand() * 256)
        .toString(16)
        .padStart(2, '0'),
    ).join('');
  const b: Builder = { rand, hex, spans: new Map(SERVICES.map((s) => [s, []])), traceId: hex(16) };
  const start = now - 60_000;
  const root = span(b, 'frontend', undefined, 'GET /api/report', KIND.server, start, 30_000, [
    attr('http.method', 'GET'),
    attr('http.route', '/api/report'),
    attr('http.status_code', 200),
  ]);
  const parents = [root];
  for (let i = 1; i < spans; i++) {
    const parent = parents[Math.floor(rand() * Math.min(parents.length, 50)) + Math.max(0, parents.length - 50)];
    const ps = Number(BigInt(parent.startTimeUnixNano) / 1_000_000n);
    const pe = Number(BigInt(parent.endTimeUnixNano) / 1_000_000n);
    const s0 = ps + rand() * (pe - ps) * 0.8;
    const d = Math.max(0.01, (pe - s0) * rand() * 0.5);
    const s =
      i % 3 === 0
        ? span(b, 'frontend', parent, 'SELECT', KIND.client, s0, d, [
            attr('db.system', 'postgresql'),
            attr('db.statement', `SELECT * FROM rows WHERE id = ${i}`),
          ])
        : span(b, 'frontend', parent, `step ${i % 97}`, KIND.internal, s0, d, [attr('code.function', `step${i % 97}`)]);
    parents.push(s);
  }
  return {
    traceId: b.traceId,
    body: {
      resourceSpans: [
        {
          resource: { attributes: resource('frontend', 'production') },
          scopeSpans: [{ scope: { name: 'lantern-demo' }, spans: b.spans.get('frontend') }],
        },
      ],
    },
  };
}
