import {
  COUNT,
  MAX,
  MIN,
  STAT_FIELDS,
  SUM,
  type FoldedSpanMetrics,
  type SpanMetricsModel,
} from '../storage/telemetry/spanMetricRows';
import type { SpanRow } from '../storage/telemetry/spanRow';
import { quoted, tsv } from '../storage/telemetry/tsvText';
import type { SpanMetricDefinition } from './metricsFromSpans';
import { parseAliased, parseSpanExpr } from './spanMetricExpr';
import { compileSpanExprJs } from './spanMetricExprJs';
import { addBucket, packPoints, SpanMetricFold } from './spanMetricFold';

/**
 * Metrics from spans (reference ingest §3.5, docs/decisions/metrics-from-spans.md), computed in
 * JS before the engine: each `metrics_from_spans` definition is compiled once into functions over
 * a span row (spanMetricExprJs.ts), and an ingest request's rows are folded into one point per
 * (project, definition, minute, attribute values) on the prepare worker that decoded them. The
 * store's batch writer folds the points of the batches' requests together (`SpanMetricFold`, handed
 * to it in the model: `spanMetricsModel`) and inserts them into `datapoint_minutes`
 * (storage/telemetry/spanMetricWriter.ts).
 *
 * Histograms keep (representative value -> count) buckets, exponential with 8 buckets per
 * doubling (OTel scale 3: each bucket is 9 % wide), so a quantile is within one bucket of the
 * spans' own.
 */
const BUCKETS_PER_DOUBLING = 8;

/**
 * toStartOfMinute of a Unix time in ns, as Unix seconds: through a double (BigInt division is
 * slow), exactly with BigInt only within a millisecond of a minute's edge, where the double's
 * rounding (a few hundred ns) could cross it.
 */
export function minuteOf(timeNs: bigint): number {
  const minutes = Number(timeNs) / 60e9;
  const m = Math.floor(minutes);
  if (minutes - m > 1e-6 && m + 1 - minutes > 1e-6) return m * 60;
  return Number(timeNs / 60_000_000_000n) * 60;
}

interface CompiledDefinition {
  name: string;
  histogram: boolean;
  where: ((r: SpanRow) => number) | null;
  value: (r: SpanRow) => number;
  attrs: ((r: SpanRow) => string)[];
  /** `key` is the JSON text before the value: `"alias":`. */
  annotations: { key: string; value: (r: SpanRow) => string }[];
  /** Attribute values a shorter definition's hash is padded with (every definition hashes as many). */
  pad: number;
  /** The series hash's state after the metric name (seriesHash, one lane each). */
  seed1: number;
  seed2: number;
  /** `\tmetric` after the project and `\tinstrument\t` after the hash: the constant parts of a head. */
  nameText: string;
  instrumentText: string;
  /** `\tstring_keys\t[`: the attribute names, the start of a tail. */
  keysText: string;
}

export interface CompiledSpanMetrics {
  defs: readonly SpanMetricDefinition[];
  compiled: CompiledDefinition[];
}

const compiledCache = new Map<string, CompiledSpanMetrics>();

/** Definitions compiled into functions over span rows (memoised by their text: workers get copies). */
export function compileSpanMetrics(defs: readonly SpanMetricDefinition[]): CompiledSpanMetrics {
  const key = JSON.stringify(defs);
  const hit = compiledCache.get(key);
  if (hit) return hit;
  const nAttrs = Math.max(0, ...defs.map((d) => d.attrs.length));
  const out: CompiledSpanMetrics = {
    defs,
    compiled: defs.map((d) => {
      const [seed1, seed2] = hashText(HASH_SEED1, HASH_SEED2, d.name);
      const aliases = d.attrs.map((a) => parseAliased(a).alias);
      return {
        name: d.name,
        histogram: d.instrument === 'histogram',
        where: d.where.trim() ? compileSpanExprJs(parseSpanExpr(d.where)).num : null,
        value: compileSpanExprJs(parseSpanExpr(d.value)).num,
        attrs: d.attrs.map((a) => compileSpanExprJs(parseAliased(a).expr).txt),
        annotations: d.annotations.map((a) => {
          const { expr, alias } = parseAliased(a);
          return { key: `${JSON.stringify(alias)}:`, value: compileSpanExprJs(expr).txt };
        }),
        pad: nAttrs - d.attrs.length,
        seed1,
        seed2,
        nameText: `\t${tsv(d.name)}\t`,
        instrumentText: `\t${d.instrument}\t`,
        keysText: `\t[${aliases.map(quoted).join(',')}]\t[`,
      };
    }),
  };
  if (compiledCache.size > 16) compiledCache.clear();
  compiledCache.set(key, out);
  return out;
}

/** Bucket i covers (b^i, b^(i+1)] with b = 2^(1/8); it is represented by its midpoint. */
export function histogramBucket(v: number): number {
  if (!(v > 0)) return 0;
  const i = Math.ceil(Math.log2(v) * BUCKETS_PER_DOUBLING);
  const at = i + BUCKET_MEMO_OFFSET;
  if (at >= 0 && at < bucketMemo.length) {
    const b = bucketMemo[at];
    if (b !== 0) return b;
    return (bucketMemo[at] = bucketMidpoint(i));
  }
  return bucketMidpoint(i);
}
const bucketMidpoint = (i: number) =>
  (Math.pow(2, (i - 1) / BUCKETS_PER_DOUBLING) + Math.pow(2, i / BUCKETS_PER_DOUBLING)) / 2;
/** Midpoints of buckets 2^-64 to 2^64 (0: not computed yet). */
const BUCKET_MEMO_OFFSET = 64 * BUCKETS_PER_DOUBLING;
const bucketMemo = new Float64Array(2 * BUCKET_MEMO_OFFSET + 1);

/**
 * The series' identity from the metric name and attribute values: a 53-bit hash (two 32-bit
 * multiply-xorshift lanes, cyrb53) of `name\0value\0value...` (padded with \0 to the longest
 * definition's attributes) as decimal text. Cheaper than a digest per new series, which the fold
 * meets for most rows when attributes vary a lot; a collision among a million series of one
 * metric and minute has odds of about 1 in 20,000. The fold feeds the same characters lane by
 * lane (`hashText`), without building the text.
 */
export function seriesHash(text: string): string {
  const [h1, h2] = hashText(HASH_SEED1, HASH_SEED2, text);
  return String(hashValue(h1, h2));
}
const HASH_SEED1 = 0xdeadbeef;
const HASH_SEED2 = 0x41c6ce57;
const hashStep1 = (h: number, c: number) => Math.imul(h ^ c, 2654435761);
const hashStep2 = (h: number, c: number) => Math.imul(h ^ c, 1597334677);
function hashText(h1: number, h2: number, text: string): [number, number] {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = hashStep1(h1, c);
    h2 = hashStep2(h2, c);
  }
  return [h1, h2];
}
function hashValue(h1: number, h2: number): number {
  const a = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  const b = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
  return 4294967296 * (2097151 & b) + (a >>> 0);
}

/** Annotations as JSON text: `{"alias":"value",...}`. */
function annotationJson(def: CompiledDefinition, r: SpanRow): string {
  const { annotations } = def;
  if (annotations.length === 0) return '';
  let out = '{';
  for (let i = 0; i < annotations.length; i++) {
    out += (i ? ',' : '') + annotations[i].key + JSON.stringify(annotations[i].value(r));
  }
  return out + '}';
}

/** Folds rows into one point per (project, definition, minute, attribute values); null without any. */
export function spanMetricPoints(metrics: CompiledSpanMetrics, rows: readonly SpanRow[]): FoldedSpanMetrics | null {
  const { compiled } = metrics;
  if (compiled.length === 0 || rows.length === 0) return null;
  // Points by project and minute, then by series hash (a number: no key text per row).
  const byMinute = new Map<string, Map<number, number>>();
  let lastProject = -1;
  let lastMinute = -1;
  let points = new Map<number, number>();
  const heads: string[] = [];
  const tails: string[] = [];
  const stats: number[] = [];
  const buckets: (number[] | null)[] = [];
  const values: string[] = [];
  for (const r of rows) {
    let minute = -1;
    for (let d = 0; d < compiled.length; d++) {
      const def = compiled[d];
      if (def.where !== null && def.where(r) === 0) continue;
      if (minute < 0) {
        minute = minuteOf(r.timeNs);
        if (minute !== lastMinute || r.projectId !== lastProject) {
          [lastMinute, lastProject] = [minute, r.projectId];
          const at = `${r.projectId}:${minute}`;
          const found = byMinute.get(at);
          if (found === undefined) byMinute.set(at, (points = new Map<number, number>()));
          else points = found;
        }
      }
      const { attrs } = def;
      let h1 = def.seed1;
      let h2 = def.seed2;
      for (let i = 0; i < attrs.length; i++) {
        const v = attrs[i](r);
        values[i] = v;
        h1 = hashStep1(h1, 0);
        h2 = hashStep2(h2, 0);
        for (let j = 0; j < v.length; j++) {
          const c = v.charCodeAt(j);
          h1 = hashStep1(h1, c);
          h2 = hashStep2(h2, c);
        }
      }
      for (let i = 0; i < def.pad; i++) {
        h1 = hashStep1(h1, 0);
        h2 = hashStep2(h2, 0);
      }
      const hash = hashValue(h1, h2);
      const v = def.value(r);
      let p = points.get(hash);
      if (p === undefined) {
        p = heads.length;
        points.set(hash, p);
        heads.push(`${r.projectId}${def.nameText}${minute}\t${hash}${def.instrumentText}`);
        let tail = def.keysText;
        for (let i = 0; i < attrs.length; i++) tail += (i ? ',' : '') + quoted(values[i]);
        tails.push(`${tail}]\t${tsv(annotationJson(def, r))}\n`);
        const first = def.histogram ? v : 0;
        stats.push(r.projectId, d, minute, 0, 0, first, first);
        buckets.push(def.histogram ? [] : null);
      }
      const s = p * STAT_FIELDS;
      stats[s + COUNT]++;
      stats[s + SUM] += v;
      const b = buckets[p];
      if (b !== null) {
        if (v < stats[s + MIN]) stats[s + MIN] = v;
        if (v > stats[s + MAX]) stats[s + MAX] = v;
        addBucket(b, histogramBucket(v), 1);
      }
    }
  }
  return packPoints(heads, tails, stats, buckets);
}

/**
 * What a store needs to write the metrics of these definitions (storage/telemetry/spanMetricRows.ts):
 * their catalogue entries, their points of rows stored without them, and the fold. Null without
 * definitions: the store writes no metrics from spans.
 */
export function spanMetricsModel(defs: readonly SpanMetricDefinition[]): SpanMetricsModel | null {
  if (defs.length === 0) return null;
  const metrics = compileSpanMetrics(defs);
  return {
    catalog: defs.map((d) => ({
      name: d.name,
      description: d.description,
      unit: d.unit,
      instrument: d.instrument,
      attrKeys: d.attrs.map((a) => parseAliased(a).alias),
    })),
    points: (rows) => spanMetricPoints(metrics, rows),
    fold: () => new SpanMetricFold(),
  };
}
