import type { Instrument } from '@lantern/shared';
import {
  addAttrs,
  cleanAttrKey,
  pbInt64,
  pbUint64,
  type AttrMap,
  type OtlpKeyValue,
  type PbKeyValue,
} from '../../ingest';
import {
  histogramDiff,
  numberDiff,
  type CumHistogram,
  type CumulativeState,
  type StateJournal,
} from './cumulativeState';
import {
  bucketMap,
  explicitBucketList,
  exponentialBucketList,
  valueRange,
  type Bucket,
  type BucketMap,
} from './histogram';
import type {
  PbAttributes,
  PbExpHistogramDataPoint,
  PbInt64,
  PbHistogramDataPoint,
  PbMetric,
  PbMetricsRequest,
  PbNumberDataPoint,
  PbSummaryDataPoint,
} from './otlpMetricsProto';
import type {
  DatapointRow,
  DatapointSink,
  MetricInfo,
  NormalizedMetrics,
  RowBase,
  RowValues,
  StatefulStep,
  StepOp,
} from './datapointRows';
import { baseAttrs, seriesOf, type BaseAttrs } from './metricSeries';
import { normalizeUnit } from './units';

/**
 * The times a datapoint row can have: its `time` is a DateTime (seconds, up to 2106), and the
 * engine reads a number of fewer than 10 digits as something else than a time. A row outside them
 * could not be written and, a batch being written whole, would fail every other client's rows in
 * the same batch (as spans, ingest/storableRows.ts).
 */
export const MIN_POINT_TIME_NS = 1_000_000_000n * 1_000_000_000n;
export const MAX_POINT_TIME_NS = BigInt(Date.UTC(2106, 0, 1)) * 1_000_000n;

const TEMPORALITY_DELTA = 1;
const TEMPORALITY_CUMULATIVE = 2;
const FLAG_NO_RECORDED_VALUE = 1;

/**
 * OTLP metrics -> stored datapoint rows (reference ingest §5.1–5.3). Each OTLP type maps to one of
 * five instruments: gauge; non-monotonic sum -> additive (its level); monotonic sum -> counter
 * (delta `sum`); histogram and exponential histogram -> histogram (`sum`, `count`, min/max and the
 * bucket map); summary. Cumulative points become deltas through CumulativeState. Attributes are
 * resource + scope + datapoint (later wins), all values as text; a series is identified by a hash
 * of its sorted key/value pairs. Times are truncated to the minute: ClickHouse folds the rows of one
 * (series, minute) together.
 */
export function normalizeMetrics(
  req: PbMetricsRequest,
  projectId: number,
  sink: DatapointSink,
  dropAttrs: readonly string[] = [],
): NormalizedMetrics {
  const out: NormalizedMetrics = { metrics: [], rejected: 0, errors: [] };
  const drop = dropAttrs.length > 0 ? new Set(dropAttrs) : undefined;
  const infos = new Map<string, { info: MetricInfo; keys: Set<string> }>();
  for (const rm of req.resourceMetrics ?? []) {
    const base: AttrMap = {};
    addAttrs(base, fixKeyValues(rm.resource?.attributes));
    for (const sm of rm.scopeMetrics ?? []) {
      // Scope attributes only (reference: scope name/version are not added for metrics).
      const scopedMap: AttrMap = { ...base };
      addAttrs(scopedMap, fixKeyValues(sm.scope?.attributes));
      const scoped = baseAttrs(scopedMap, drop);
      for (const m of sm.metrics ?? []) {
        const keys = new Set<string>();
        const instrument = metricRows(m, projectId, scoped, sink, keys, out);
        if (!instrument) continue;
        const name = cleanAttrKey(m.name ?? '');
        let entry = infos.get(name);
        if (!entry) {
          entry = {
            info: {
              name,
              description: m.description ?? '',
              unit: normalizeUnit(m.unit ?? ''),
              instrument,
              attrKeys: [],
            },
            keys: new Set(),
          };
          infos.set(name, entry);
        }
        for (const k of keys) entry.keys.add(k);
      }
    }
  }
  for (const { info, keys } of infos.values()) {
    info.attrKeys = [...keys].sort();
    out.metrics.push(info);
  }
  return out;
}

/** Appends the rows of one metric; returns its instrument, or null when it was rejected whole. */
function metricRows(
  m: PbMetric,
  projectId: number,
  base: BaseAttrs,
  sink: DatapointSink,
  keys: Set<string>,
  out: NormalizedMetrics,
): Exclude<Instrument, 'deleted'> | null {
  const name = cleanAttrKey(m.name ?? '');
  const reject = (n: number, why: string) => {
    out.rejected += n;
    if (out.errors.length < 5) out.errors.push(why);
  };
  const points = dataPointCount(m);
  if (name === '') {
    reject(points, 'metric name is empty');
    return null;
  }
  const ctx: Ctx = { projectId, name, base, sink, keys, reject, lastKeys: null };
  if (m.gauge) {
    for (const dp of m.gauge.dataPoints ?? [])
      numberPoint(ctx, 'gauge', dp, (v) => ({ gauge: v, min: v, max: v, sum: v, count: 1 }));
    return 'gauge';
  }
  if (m.sum) {
    const temporality = m.sum.aggregationTemporality ?? 0;
    if (temporality !== TEMPORALITY_DELTA && temporality !== TEMPORALITY_CUMULATIVE) {
      reject(points, `metric "${name}": unknown aggregation temporality ${temporality}`);
      return null;
    }
    const cumulative = temporality === TEMPORALITY_CUMULATIVE;
    if (!m.sum.isMonotonic) {
      for (const dp of m.sum.dataPoints ?? []) {
        numberPoint(ctx, 'additive', dp, (v) =>
          cumulative ? { gauge: v, min: v, max: v, sum: v, count: 1 } : { op: 'level', v },
        );
      }
      return 'additive';
    }
    for (const dp of m.sum.dataPoints ?? []) {
      numberPoint(ctx, 'counter', dp, (v) => (cumulative ? { op: 'counter', v } : { sum: v, count: 1 }));
    }
    return 'counter';
  }
  if (m.histogram) {
    const cumulative = m.histogram.aggregationTemporality === TEMPORALITY_CUMULATIVE;
    for (const dp of m.histogram.dataPoints ?? []) histogramPoint(ctx, dp, cumulative);
    return 'histogram';
  }
  if (m.exponentialHistogram) {
    const cumulative = m.exponentialHistogram.aggregationTemporality === TEMPORALITY_CUMULATIVE;
    for (const dp of m.exponentialHistogram.dataPoints ?? []) expHistogramPoint(ctx, dp, cumulative);
    return 'histogram';
  }
  if (m.summary) {
    for (const dp of m.summary.dataPoints ?? []) summaryPoint(ctx, dp);
    return 'summary';
  }
  reject(
    Math.max(points, 1),
    `metric "${name}": unknown instrument (no gauge, sum, histogram, exponential histogram or summary data)`,
  );
  return null;
}

const NO_HISTOGRAM: [number[], number[]] = [[], []];

interface Ctx {
  projectId: number;
  name: string;
  base: BaseAttrs;
  sink: DatapointSink;
  /** The metric's attribute keys (for the catalogue). */
  keys: Set<string>;
  /** The key array last added to `keys` (points of one group share theirs). */
  lastKeys: string[] | null;
  reject(n: number, why: string): void;
}

type Values = Partial<Pick<DatapointRow, 'min' | 'max' | 'sum' | 'count' | 'gauge'>> & { histogram?: BucketMap };

interface CommonPoint {
  attributes?: PbAttributes;
  startTimeUnixNano?: PbInt64;
  timeUnixNano?: PbInt64;
  flags?: number | null;
}

/** Builds the row of one datapoint: its values, or the step that will give them. */
function point<P extends CommonPoint>(
  ctx: Ctx,
  instrument: DatapointRow['instrument'],
  dp: P,
  values: () => Values | StepOp,
): void {
  if ((dp.flags ?? 0) & FLAG_NO_RECORDED_VALUE) return;
  const timeNs = pbUint64(dp.timeUnixNano);
  if (timeNs === 0n) {
    ctx.reject(1, `metric "${ctx.name}": datapoint without a time`);
    return;
  }
  if (timeNs < MIN_POINT_TIME_NS || timeNs >= MAX_POINT_TIME_NS) {
    ctx.reject(1, `metric "${ctx.name}": datapoint time outside 2001-09-09 to 2106-01-01`);
    return;
  }
  const { keys, vals, hash } = seriesOf(ctx.base, fixKeyValues(dp.attributes));
  const v = values();
  if (keys !== ctx.lastKeys) {
    for (const k of keys) ctx.keys.add(k);
    ctx.lastKeys = keys;
  }
  const base: RowBase = {
    projectId: ctx.projectId,
    metric: ctx.name,
    time: Number(timeNs / 60_000_000_000n) * 60,
    hash,
    instrument,
    keys,
    vals,
  };
  // The series key and start time only for the points that need the state.
  if ('op' in v) {
    const key = `${ctx.projectId}\u0000${ctx.name}\u0000${hash}`;
    ctx.sink.stateful(base, { ...v, key, startNs: pbUint64(dp.startTimeUnixNano), timeNs });
  } else ctx.sink.row(base, rowValues(v));
}

function rowValues(v: Values): RowValues {
  const h = v.histogram;
  return {
    min: finite(v.min),
    max: finite(v.max),
    sum: finite(v.sum),
    count: Math.max(0, Math.round(v.count ?? 0)),
    gauge: finite(v.gauge),
    histogram: h ? [h.values, h.counts] : NO_HISTOGRAM,
  };
}

/**
 * The values of a stateful point, from the cumulative state (on the thread that holds it); null
 * when the step drops the point (the first of a series, an older point, a changed layout).
 */
export function resolveStep(step: StatefulStep, state: CumulativeState, journal?: StateJournal): RowValues | null {
  switch (step.op) {
    case 'level': {
      const level = state.accumulate(step.key, step.v, journal);
      return rowValues({ gauge: level, min: level, max: level, sum: level, count: 1 });
    }
    case 'counter': {
      const delta = state.step(step.key, step.startNs, step.timeNs, step.v, numberDiff, journal);
      return delta === null ? null : rowValues({ sum: delta, count: 1 });
    }
    case 'histogram': {
      const d = state.step(step.key, step.startNs, step.timeNs, step.cur, histogramDiff, journal);
      if (d === null) return null;
      // The point's min/max cover its whole cumulative window, this delta's values among them:
      // valueRange narrows them to the buckets this delta filled.
      const buckets = Array.isArray(d.buckets)
        ? (explicitBucketList(d.bounds ?? [], d.buckets) ?? [])
        : exponentialBucketList({
            scale: d.scale ?? 0,
            zeroCount: d.zeroCount ?? 0,
            positive: fromIndex(d.buckets),
            negative: fromIndex(d.negative ?? new Map<number, number>()),
          });
      return rowValues(histogramValues(d, buckets, d.min, d.max));
    }
  }
}

function numberPoint(
  ctx: Ctx,
  instrument: DatapointRow['instrument'],
  dp: PbNumberDataPoint,
  values: (v: number) => Values | StepOp,
): void {
  const v = dp.asDouble != null ? dp.asDouble : Number(pbInt64(dp.asInt ?? 0));
  point(ctx, instrument, dp, () => values(v));
}

function histogramPoint(ctx: Ctx, dp: PbHistogramDataPoint, cumulative: boolean): void {
  const cur: CumHistogram = {
    count: Number(pbUint64(dp.count)),
    sum: dp.sum ?? 0,
    buckets: (dp.bucketCounts ?? []).map((c) => Number(pbUint64(c))),
    bounds: dp.explicitBounds ?? [],
    min: dp.min ?? undefined,
    max: dp.max ?? undefined,
  };
  point(ctx, 'histogram', dp, () => {
    if (cumulative) return { op: 'histogram', cur };
    return histogramValues(cur, explicitBucketList(cur.bounds ?? [], cur.buckets as number[]) ?? [], cur.min, cur.max);
  });
}

function expHistogramPoint(ctx: Ctx, dp: PbExpHistogramDataPoint, cumulative: boolean): void {
  const byIndex = (b: PbExpHistogramDataPoint['positive']) => {
    const m = new Map<number, number>();
    const offset = b?.offset ?? 0;
    (b?.bucketCounts ?? []).forEach((c, i) => {
      const n = Number(pbUint64(c));
      if (n > 0) m.set(offset + i, n);
    });
    return m;
  };
  const cur: CumHistogram = {
    count: Number(pbUint64(dp.count)),
    sum: dp.sum ?? 0,
    scale: dp.scale ?? 0,
    zeroCount: Number(pbUint64(dp.zeroCount)),
    buckets: byIndex(dp.positive),
    negative: byIndex(dp.negative),
    min: dp.min ?? undefined,
    max: dp.max ?? undefined,
  };
  point(ctx, 'histogram', dp, () => {
    if (cumulative) return { op: 'histogram', cur };
    const buckets = exponentialBucketList({
      scale: cur.scale ?? 0,
      zeroCount: cur.zeroCount ?? 0,
      positive: fromIndex(cur.buckets as Map<number, number>),
      negative: fromIndex(cur.negative ?? new Map<number, number>()),
    });
    return histogramValues(cur, buckets, cur.min, cur.max);
  });
}

function fromIndex(m: Map<number, number>): { offset: number; counts: number[] } {
  if (m.size === 0) return { offset: 0, counts: [] };
  const idx = [...m.keys()];
  const lo = Math.min(...idx);
  const hi = Math.max(...idx);
  const counts = new Array<number>(hi - lo + 1).fill(0);
  for (const [i, c] of m) counts[i - lo] = c;
  return { offset: lo, counts };
}

/**
 * A histogram row's values: min and max are the tightest known for its values (valueRange), and
 * each bucket is represented inside them; without any value, the average.
 */
function histogramValues(
  v: { sum: number; count: number },
  buckets: readonly Bucket[],
  min: number | undefined,
  max: number | undefined,
): Values {
  const range = valueRange(buckets, min, max);
  const histogram: BucketMap = bucketMap(buckets, range?.min, range?.max);
  const avg = v.count ? v.sum / v.count : 0;
  return { sum: v.sum, count: v.count, histogram, min: range?.min ?? avg, max: range?.max ?? avg };
}

function summaryPoint(ctx: Ctx, dp: PbSummaryDataPoint): void {
  const count = Number(pbUint64(dp.count));
  const sum = dp.sum ?? 0;
  point(ctx, 'summary', dp, () => {
    const qs = (dp.quantileValues ?? []).map((q) => q.value ?? 0);
    const avg = count > 0 ? sum / count : NaN;
    const all = Number.isNaN(avg) ? qs : [avg, ...qs];
    return { sum, count, min: all.length ? Math.min(...all) : 0, max: all.length ? Math.max(...all) : 0 };
  });
}

function dataPointCount(m: PbMetric): number {
  const d = m.gauge ?? m.sum ?? m.histogram ?? m.exponentialHistogram ?? m.summary;
  return d?.dataPoints?.length ?? 0;
}

const finite = (v: number | undefined) => (v !== undefined && Number.isFinite(v) ? v : 0);

/**
 * protobufjs leaves int64 attribute values as Long; make them the OtlpKeyValue shape in place
 * (the wire reader's lists are in that shape already: nothing changes in them).
 */
function fixKeyValues(attrs: PbAttributes | undefined, depth = 0): OtlpKeyValue[] {
  if (!attrs) return [];
  const list = attrs as PbKeyValue[];
  for (const kv of list) {
    if (kv.key == null) kv.key = '';
    const v = kv.value;
    if (!v || depth > 16) continue;
    if (v.intValue != null && typeof v.intValue !== 'number' && typeof v.intValue !== 'bigint')
      v.intValue = pbInt64(v.intValue);
    if (v.kvlistValue?.values) fixKeyValues(v.kvlistValue.values, depth + 1);
    if (v.arrayValue?.values) {
      for (const el of v.arrayValue.values) {
        if (el.intValue != null && typeof el.intValue !== 'number' && typeof el.intValue !== 'bigint')
          el.intValue = pbInt64(el.intValue);
      }
    }
  }
  return list as OtlpKeyValue[];
}
