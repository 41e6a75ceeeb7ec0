/**
 * Schema serialization (fast-json-stringify, from the contract's response schema) against Fastify's
 * default JSON.stringify, on two large answers: a page of 1000 spans (the largest tracing answer)
 * and a metrics timeseries answer (200 series x 1440 minutes). The same route and answer are
 * registered twice, once with `{ serialize: true }`; requests alternate between the two in one run
 * (in-process, app.inject), and the median time per request is compared. Checks that both send the
 * same JSON.
 *
 *   npx tsx bench/api/serialize.ts [--rounds 60]
 */
import { isDeepStrictEqual } from 'node:util';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pino from 'pino';
import {
  metricsRoutes,
  tracingRoutes,
  type AnyRouteContract,
  type MetricTimeseriesResponse,
  type SpansResponse,
} from '@lantern/shared';
import { createHttpApp, registerRoute } from '@lantern/server';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '60' } } });
const ROUNDS = Number(args.rounds);

let seed = 42;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const hex = (n: number) => Array.from({ length: n }, () => Math.floor(rand() * 16).toString(16)).join('');

function spansAnswer(): SpansResponse {
  const spans = Array.from({ length: 1000 }, (_, i) => ({
    id: String(BigInt('0x' + hex(15))),
    parentId: String(BigInt('0x' + hex(15))),
    traceId: hex(32),
    projectId: 1,
    system: 'http:checkout',
    groupId: String(BigInt('0x' + hex(15))),
    kind: 'server' as const,
    name: `GET /api/products/${i % 40}`,
    displayName: `GET /api/products/:id`,
    time: new Date(1_760_000_000_000 + i * 1000).toISOString(),
    duration: Math.round(rand() * 5e8),
    durationSelf: Math.round(rand() * 1e8),
    startPct: 0,
    endPct: 1,
    statusCode: i % 17 === 0 ? ('error' as const) : ('unset' as const),
    statusMessage: '',
    attrs: {
      'service.name': 'checkout',
      'host.name': `web-${i % 8}`,
      'http.request.method': 'GET',
      'http.route': '/api/products/:id',
      'http.response.status_code': 200,
      'url.full': `https://shop.example/api/products/${i}?q=${hex(6)}`,
      'user_agent.original': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36',
      'deployment.environment': 'production',
      'telemetry.sdk.language': 'nodejs',
      'telemetry.sdk.version': '1.30.0',
      'net.peer.port': 443,
      'db.rows': Math.floor(rand() * 100),
    },
    events:
      i % 5 === 0
        ? [
            {
              name: 'log',
              time: new Date(1_760_000_000_000 + i * 1000).toISOString(),
              attrs: { 'log.severity': 'info', 'log.message': `handled ${hex(12)}` },
            },
          ]
        : [],
  }));
  return {
    spans,
    count: 125_000,
    hasMore: true,
    order: { column: '.time', desc: true },
    query: {
      parts: [{ query: 'where .status_code = error', disabled: false, error: '', range: { start: 0, end: 26 } }],
    },
  };
}

function timeseriesAnswer(): MetricTimeseriesResponse {
  const minutes = 1440;
  return {
    query: { parts: [{ query: 'per_min(sum($req)) as rpm | group by host.name', error: '' }] },
    timeseries: Array.from({ length: 200 }, (_, i) => ({
      id: hex(16),
      name: 'rpm',
      metric: 'http.server.duration',
      unit: '',
      attrs: { 'host.name': `web-${i}`, 'service.name': 'checkout' },
      value: Array.from({ length: minutes }, () => (rand() < 0.02 ? null : Math.round(rand() * 1e6) / 100)),
    })),
    time: Array.from({ length: minutes }, (_, m) => new Date(1_760_000_000_000 + m * 60_000).toISOString()),
    columns: [{ name: 'rpm', unit: '', isGroup: false }],
  };
}

async function measure(name: string, contract: AnyRouteContract, answer: unknown, url: string) {
  const apps = await Promise.all(
    [false, true].map(async (serialize) => {
      const app = await createHttpApp(pino({ level: 'silent' }));
      registerRoute(app, contract, async () => answer as never, { serialize });
      await app.ready();
      return app;
    }),
  );
  const [plain, schema] = await Promise.all(apps.map((a) => a.inject({ url })));
  const same = isDeepStrictEqual(JSON.parse(plain.body), JSON.parse(schema.body));
  const times: [number[], number[]] = [[], []];
  for (let r = 0; r < ROUNDS + 5; r++)
    for (const k of r % 2 ? [1, 0] : [0, 1]) {
      const t0 = performance.now();
      const res = await apps[k].inject({ url });
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      if (r >= 5) times[k as 0 | 1].push(ms);
    }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const [p, s] = times.map(median) as [number, number];
  console.log(
    `${name.padEnd(22)} ${(plain.body.length / 1e6).toFixed(2)} MB  JSON.stringify ${p.toFixed(1)} ms  schema ${s.toFixed(1)} ms  schema/plain ${(s / p).toFixed(2)}  same JSON: ${same}`,
  );
  await Promise.all(apps.map((a) => a.close()));
}

console.log(
  `rounds ${ROUNDS}, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
await measure('spans (1000)', tracingRoutes.tracingSpans, spansAnswer(), '/api/v1/tracing/1/spans');
await measure(
  'metrics timeseries',
  metricsRoutes.metricsTimeseries,
  timeseriesAnswer(),
  '/api/v1/metrics/1/timeseries',
);
