import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = require('@opentelemetry/otlp-proto-exporter-base/build/src/generated/root.js');
const ExportMetricsServiceRequest = root.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;

export interface BenchSeriesOptions {
  series: number;
  stepMs: number;
  hours: number;
  /** Datapoints per OTLP request. */
  perRequest: number;
}

/** The timestamps of the bench: one every `stepMs` over the last `hours`, ending on a step boundary. */
export function benchTimes(o: Pick<BenchSeriesOptions, 'stepMs' | 'hours'>): { times: number[]; end: number } {
  const end = Math.floor(Date.now() / o.stepMs) * o.stepMs;
  const times: number[] = [];
  for (let t = end - o.hours * 3600_000 + o.stepMs; t <= end; t += o.stepMs) times.push(t);
  return { times, end };
}

export const seriesAttrs = (i: number) => ({ host: `host-${i % 100}`, route: `/route/${Math.floor(i / 100)}` });
/** A deterministic per-series, per-step increment. */
export const inc = (i: number, k: number) => 1 + ((i * 7 + k * 13) % 10);

/**
 * `bench/metrics`'s series as OTLP/HTTP protobuf bodies: delta monotonic sums `bench.requests`,
 * attributes `host` x `route` under one resource, `perRequest` datapoints per body, in time order.
 */
export function benchOtlpBodies(
  o: BenchSeriesOptions,
  times = benchTimes(o).times,
): { bodies: Buffer[]; points: number } {
  const bodies: Buffer[] = [];
  let batch: object[] = [];
  let points = 0;
  const flush = () => {
    if (!batch.length) return;
    const msg = ExportMetricsServiceRequest.fromObject({
      resourceMetrics: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'bench' } }] },
          scopeMetrics: [
            {
              metrics: [
                { name: 'bench.requests', sum: { aggregationTemporality: 1, isMonotonic: true, dataPoints: batch } },
              ],
            },
          ],
        },
      ],
    });
    bodies.push(Buffer.from(ExportMetricsServiceRequest.encode(msg).finish()));
    batch = [];
  };
  times.forEach((t, k) => {
    const ns = String(BigInt(t) * 1_000_000n);
    const startNs = String(BigInt(t - o.stepMs) * 1_000_000n);
    for (let i = 0; i < o.series; i++) {
      const a = seriesAttrs(i);
      batch.push({
        attributes: [
          { key: 'host', value: { stringValue: a.host } },
          { key: 'route', value: { stringValue: a.route } },
        ],
        startTimeUnixNano: startNs,
        timeUnixNano: ns,
        asInt: inc(i, k),
      });
      points++;
      if (batch.length >= o.perRequest) flush();
    }
  });
  flush();
  return { bodies, points };
}
