import protobuf from 'protobufjs';
import { uncompress } from 'snappy';
import { OtlpDecodeError, snappyBlockLength, type PbKeyValue } from '../../ingest';
import type { PbMetric, PbMetricsRequest, PbNumberDataPoint } from './otlpMetricsProto';

/**
 * Prometheus remote write 1.0 (`POST /api/v1/prometheus/write`, snappy-compressed
 * `prometheus.WriteRequest`), mapped onto OTLP metrics so that the OTLP path's mapping, cumulative
 * -> delta state, batching and durable commit do the rest:
 *
 * - a series typed `counter` by the request's metadata, or untyped and named `*_total`, is a
 *   monotonic cumulative sum (Lantern `counter`). Prometheus sends no start time: a counter's first
 *   sample is its baseline (not counted), and a value below the previous one is a restart, counted
 *   in full from zero, as Prometheus's `increase()` does;
 * - the series of classic histograms and summaries (`*_bucket` with `le`, `*_sum`, `*_count`) are
 *   counters under their own names with their labels (so `rate(x_sum) / rate(x_count)` and per-`le`
 *   rates work); summary quantiles (`quantile` label) and everything else are gauges. Prometheus
 *   spreads one histogram's series over several requests, so they cannot be joined into one
 *   Lantern histogram without holding acknowledged samples back, which the durability contract
 *   forbids;
 * - labels become attributes (`__name__` is the metric name); staleness markers (NaN) are dropped;
 *   native histograms (remote write field 4) are refused with a count.
 */
const root = protobuf.Root.fromJSON({
  nested: {
    prometheus: {
      nested: {
        WriteRequest: {
          fields: {
            timeseries: { rule: 'repeated', type: 'TimeSeries', id: 1 },
            metadata: { rule: 'repeated', type: 'MetricMetadata', id: 3 },
          },
        },
        TimeSeries: {
          fields: {
            labels: { rule: 'repeated', type: 'Label', id: 1 },
            samples: { rule: 'repeated', type: 'Sample', id: 2 },
            histograms: { rule: 'repeated', type: 'Histogram', id: 4 },
          },
        },
        Label: { fields: { name: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } } },
        Sample: { fields: { value: { type: 'double', id: 1 }, timestamp: { type: 'int64', id: 2 } } },
        // Only counted (refused): native histograms are not mapped.
        Histogram: { fields: { timestamp: { type: 'int64', id: 15 } } },
        MetricMetadata: {
          fields: {
            type: { type: 'int32', id: 1 },
            metricFamilyName: { type: 'string', id: 2 },
            help: { type: 'string', id: 4 },
            unit: { type: 'string', id: 5 },
          },
        },
      },
    },
  },
});
const WriteRequest = root.lookupType('prometheus.WriteRequest');

type PbLong = { toString(): string } | number;
export interface PromWriteRequest {
  timeseries?: {
    labels?: { name?: string; value?: string }[];
    samples?: { value?: number; timestamp?: PbLong }[];
    histograms?: unknown[];
  }[];
  metadata?: { type?: number; metricFamilyName?: string; help?: string; unit?: string }[];
}

const TYPE_COUNTER = 1;
const TYPE_HISTOGRAM = 3;
const TYPE_SUMMARY = 5;

/** Snappy block + protobuf; a body that is neither is a clear 400. */
export async function decodePromWrite(body: Buffer, maxBytes: number): Promise<PromWriteRequest> {
  const notSnappy = (err: unknown) =>
    new OtlpDecodeError(
      `body is not snappy-compressed (remote write sends Content-Encoding: snappy): ${(err as Error).message}`,
    );
  // The block states its length up front: one past the limit is refused before it is inflated
  // (a 30 MB body of a 600 MB block was inflated in full first).
  let stated: number;
  try {
    stated = snappyBlockLength(body);
  } catch (err) {
    throw notSnappy(err);
  }
  if (stated > maxBytes) throw new OtlpDecodeError(`remote write body exceeds ${maxBytes} bytes after decompression`);
  let raw: Buffer; // exactly `stated` bytes: the decoder checks the block against its length
  try {
    raw = (await uncompress(body)) as Buffer;
  } catch (err) {
    throw notSnappy(err);
  }
  try {
    return WriteRequest.decode(raw) as unknown as PromWriteRequest;
  } catch (err) {
    throw new OtlpDecodeError(`body is not a Prometheus remote write WriteRequest: ${(err as Error).message}`);
  }
}

/** Bounded LRU of what remote write tells only now and then: metric types, and counter start times. */
class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly capacity: number) {}
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, v: V): void {
    this.map.delete(key);
    this.map.set(key, v);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as string);
  }
}

export interface PromMapping {
  request: PbMetricsRequest;
  samples: number;
  rejected: number;
  errors: string[];
}

/** Per-process state of the mapping (metadata seen, counter restarts); one per server. */
export class PromWriteMapper {
  private readonly types = new Lru<number>(100_000);
  private readonly help = new Lru<{ help: string; unit: string }>(100_000);
  /**
   * Per counter series: the last value, and the start time given to its points (0: since before we
   * knew it). Not taken back when a request's commit fails (unlike the cumulative state, which is):
   * it records samples seen, and the retry of the same samples gets the same start times.
   */
  private readonly counters = new Lru<{ last: number; lastMs: number; startNs: string }>(200_000);

  map(req: PromWriteRequest, projectId: number): PromMapping {
    for (const m of req.metadata ?? []) {
      if (!m.metricFamilyName) continue;
      this.types.set(`${projectId}\u0000${m.metricFamilyName}`, m.type ?? 0);
      if (m.help || m.unit)
        this.help.set(`${projectId}\u0000${m.metricFamilyName}`, { help: m.help ?? '', unit: m.unit ?? '' });
    }
    // Families whose histogram buckets or summary quantiles are in this request: their untyped
    // `_sum` and `_count` are counters too.
    const families = new Set<string>();
    for (const ts of req.timeseries ?? []) {
      const name = ts.labels?.find((l) => l.name === '__name__')?.value ?? '';
      if (ts.labels?.some((l) => l.name === 'le') && name.endsWith('_bucket'))
        families.add(name.slice(0, -'_bucket'.length));
      if (ts.labels?.some((l) => l.name === 'quantile')) families.add(name);
    }
    const metrics = new Map<string, PbMetric>();
    const out: PromMapping = {
      request: { resourceMetrics: [{ resource: { attributes: [] }, scopeMetrics: [{ scope: {}, metrics: [] }] }] },
      samples: 0,
      rejected: 0,
      errors: [],
    };
    const reject = (n: number, why: string) => {
      out.rejected += n;
      if (out.errors.length < 5) out.errors.push(why);
    };
    for (const ts of req.timeseries ?? []) {
      const samples = ts.samples ?? [];
      out.samples += samples.length + (ts.histograms?.length ?? 0);
      if (ts.histograms?.length)
        reject(ts.histograms.length, 'native histograms are not supported (send classic histograms)');
      const name = ts.labels?.find((l) => l.name === '__name__')?.value ?? '';
      if (!name) {
        reject(samples.length, 'a series has no __name__ label');
        continue;
      }
      const labels = (ts.labels ?? [])
        .filter((l) => l.name && l.name !== '__name__')
        .sort((a, b) => (a.name! < b.name! ? -1 : 1));
      const attributes: PbKeyValue[] = labels.map((l) => ({ key: l.name!, value: { stringValue: l.value ?? '' } }));
      const counter = this.isCounter(projectId, name, labels, families);
      const seriesKey = `${projectId}\u0000${name}\u0000${labels.map((l) => `${l.name}=${l.value}`).join('\u0000')}`;
      const points: PbNumberDataPoint[] = [];
      for (const s of samples) {
        const value = s.value ?? 0;
        // Prometheus's staleness marker is a NaN (whose payload bits JS need not keep): a series
        // ended, nothing to store. Other NaNs mean "no value" alike.
        if (Number.isNaN(value)) continue;
        if (!Number.isFinite(value)) {
          reject(1, `metric "${name}": a sample is ${value}`);
          continue;
        }
        const ms = Number(s.timestamp ?? 0);
        const timeUnixNano = (BigInt(ms) * 1_000_000n).toString();
        points.push({
          attributes,
          timeUnixNano,
          asDouble: value,
          startTimeUnixNano: counter ? this.counterStart(seriesKey, value, ms) : '0',
        });
      }
      if (points.length === 0) continue;
      const metric = this.metric(metrics, projectId, name, counter);
      (counter ? metric.sum!.dataPoints! : metric.gauge!.dataPoints!).push(...points);
    }
    out.request.resourceMetrics![0].scopeMetrics![0].metrics = [...metrics.values()];
    return out;
  }

  private typeOf(projectId: number, family: string): number | undefined {
    return this.types.get(`${projectId}\u0000${family}`);
  }

  /**
   * Counters: typed so; the `_bucket`, `_sum` and `_count` series of a histogram or summary (typed,
   * or seen with its buckets / quantiles in the request); untyped `*_total`. Quantiles and the
   * rest are gauges.
   */
  private isCounter(
    projectId: number,
    name: string,
    labels: { name?: string }[],
    families: ReadonlySet<string>,
  ): boolean {
    if (labels.some((l) => l.name === 'quantile')) return false;
    const own = this.typeOf(projectId, name);
    if (own !== undefined && own !== 0) return own === TYPE_COUNTER;
    const family = /^(.*)_(bucket|sum|count)$/.exec(name)?.[1];
    if (family !== undefined) {
      const t = this.typeOf(projectId, family);
      if (t === TYPE_HISTOGRAM || t === TYPE_SUMMARY || families.has(family)) return true;
      if (name.endsWith('_bucket') && labels.some((l) => l.name === 'le')) return true;
    }
    return name.endsWith('_total');
  }

  /**
   * The start time for a counter's point: "0" until a restart is seen (the first sample is then
   * only a baseline), and the restarted series' own start after one, so that its first point after
   * the restart counts in full.
   */
  private counterStart(key: string, value: number, ms: number): string {
    const prev = this.counters.get(key);
    let startNs = prev?.startNs ?? '0';
    if (prev && ms > prev.lastMs && value < prev.last) startNs = ((BigInt(ms) - 1n) * 1_000_000n).toString();
    if (!prev || ms > prev.lastMs) this.counters.set(key, { last: value, lastMs: ms, startNs });
    return startNs;
  }

  private metric(metrics: Map<string, PbMetric>, projectId: number, name: string, counter: boolean): PbMetric {
    let m = metrics.get(name);
    if (!m) {
      const meta =
        this.help.get(`${projectId}\u0000${name}`) ??
        this.help.get(`${projectId}\u0000${name.replace(/_(bucket|sum|count|total)$/, '')}`);
      m = {
        name,
        description: meta?.help ?? '',
        unit: meta?.unit ?? '',
        ...(counter
          ? { sum: { dataPoints: [], aggregationTemporality: 2, isMonotonic: true } }
          : { gauge: { dataPoints: [] } }),
      };
      metrics.set(name, m);
    }
    return m;
  }
}
