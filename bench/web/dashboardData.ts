import { createRequire } from 'node:module';

/**
 * The data set and dashboard of `bench/web/dashboard.ts`: counter series (host x route, one point a
 * step) and a latency histogram per host as OTLP/HTTP protobuf requests, and the 8 panels.
 */
const require = createRequire(import.meta.url);
const root = require('@opentelemetry/otlp-proto-exporter-base/build/src/generated/root.js');
const ExportMetricsServiceRequest = root.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;

export const HOSTS = 100;
const BOUNDS = [5, 10, 25, 50, 100, 250, 500, 1000];

/** The data set's time steps: every `stepMs` over the `hours` before now. */
export function timeSteps(hours: number, stepMs: number): number[] {
  const end = Math.floor(Date.now() / stepMs) * stepMs;
  const times: number[] = [];
  for (let t = end - hours * 3600_000 + stepMs; t <= end; t += stepMs) times.push(t);
  return times;
}

const ns = (ms: number) => String(BigInt(ms) * 1_000_000n);
const attr = (key: string, v: string) => ({ key, value: { stringValue: v } });

/** One OTLP request per time step: every counter series (delta) and one latency histogram per host. */
export function bodies(times: number[], series: number, stepMs: number): Buffer[] {
  return times.map((t, k) => {
    const counter = Array.from({ length: series }, (_, i) => ({
      attributes: [attr('host', `host-${i % HOSTS}`), attr('route', `/route/${Math.floor(i / HOSTS)}`)],
      startTimeUnixNano: ns(t - stepMs),
      timeUnixNano: ns(t),
      asInt: 1 + ((i * 7 + k * 13) % 10),
    }));
    const hist = Array.from({ length: HOSTS }, (_, h) => {
      const counts = BOUNDS.map((_, b) => 1 + ((h + b * 3 + k) % 7)).concat([1]);
      return {
        attributes: [attr('host', `host-${h}`)],
        startTimeUnixNano: ns(t - stepMs),
        timeUnixNano: ns(t),
        count: counts.reduce((a, b) => a + b, 0),
        sum: counts.reduce((a, c, b) => a + c * (BOUNDS[b] ?? 2000) * 0.7, 0),
        bucketCounts: counts,
        explicitBounds: BOUNDS,
      };
    });
    const msg = ExportMetricsServiceRequest.fromObject({
      resourceMetrics: [
        {
          resource: { attributes: [attr('service.name', 'bench')] },
          scopeMetrics: [
            {
              metrics: [
                {
                  name: 'bench.requests',
                  unit: '{request}',
                  sum: { aggregationTemporality: 1, isMonotonic: true, dataPoints: counter },
                },
                { name: 'bench.latency', unit: 'ms', histogram: { aggregationTemporality: 1, dataPoints: hist } },
              ],
            },
          ],
        },
      ],
    });
    return Buffer.from(ExportMetricsServiceRequest.encode(msg).finish());
  });
}

/** Sends the requests over `clients` connections, again after a 429 or 503. */
export async function send(baseUrl: string, dsn: string, list: Buffer[], clients: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < list.length) {
        const b = list[next++];
        for (;;) {
          const res = await fetch(`${baseUrl}/v1/metrics`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-protobuf', 'lantern-dsn': dsn },
            body: b,
          });
          await res.arrayBuffer();
          if (res.status === 429 || res.status === 503) {
            await new Promise((r) => setTimeout(r, 200));
            continue;
          }
          if (res.status >= 300) throw new Error(`ingest answered ${res.status}`);
          break;
        }
      }
    }),
  );
}

const req = [{ name: 'bench.requests', alias: 'req' }];
const lat = [{ name: 'bench.latency', alias: 'lat' }];
/** The 8 panels: 100-series charts, tables over all series, a heatmap; two per row. */
export const PANELS = [
  { type: 'chart', name: 'Requests', params: { chartKind: 'area', metrics: req, query: 'per_min($req)' } },
  {
    type: 'chart',
    name: 'Requests by host',
    params: { chartKind: 'line', metrics: req, query: 'per_min($req) | group by host' },
  },
  {
    type: 'chart',
    name: 'Requests by route',
    params: { chartKind: 'stacked-bar', metrics: req, query: 'per_min($req) | group by route' },
  },
  { type: 'table', name: 'Hosts', params: { metrics: req, query: 'per_min($req) | sum($req) | group by host' } },
  { type: 'heatmap', name: 'Latency heatmap', params: { metric: 'bench.latency', unit: 'milliseconds', query: '' } },
  {
    type: 'chart',
    name: 'p90 latency by host',
    params: { chartKind: 'line', metrics: lat, query: 'p90($lat) | group by host' },
  },
  { type: 'table', name: 'Routes', params: { metrics: req, query: 'sum($req) | group by route' } },
  {
    type: 'chart',
    name: 'host-1 by route',
    params: { chartKind: 'stacked-area', metrics: req, query: 'per_min($req) | where host = host-1 | group by route' },
  },
];
