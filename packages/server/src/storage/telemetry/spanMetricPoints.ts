import { parseAliased, parseSpanExpr, type SpanExpr, type SpanMetricDefinition } from '../../config';
import type { SpanRow } from './spanRow';
import { ATTR_COLUMNS, quoted, stringifyAttr, tsv } from './spanRowEncoding';

/**
 * Metrics from spans (reference ingest §3.5, docs/decisions/metrics-from-spans.md), computed in
 * JS before the engine: each `metrics_from_spans` definition is compiled once into functions over
 * a span row that give what the stored row's columns would give (the same values as the SQL the
 * materialized views used to run), and an ingest request's rows are folded into one point per
 * (project, definition, minute, attribute values) on the prepare worker that decoded them. The
 * batch writer folds the points of the batches' requests together (`SpanMetricFold`) and inserts
 * them into `datapoint_minutes` (spanMetricWriter.ts).
 *
 * Histograms keep (representative value -> count) buckets, exponential with 8 buckets per
 * doubling (OTel scale 3: each bucket is 9 % wide), so a quantile is within one bucket of the
 * spans' own.
 */
const BUCKETS_PER_DOUBLING = 8;

/**
 * One request's rows folded into datapoints, in a form that crosses threads cheaply: strings and
 * typed arrays, no object per point (a structured clone of an object per point cost about as much
 * as the fold). A point's datapoint line (DATAPOINT_TSV_COLUMNS) is its head, its numbers and its
 * tail; the head also keys its series and minute.
 */
export interface FoldedSpanMetrics {
  /** Per point: `project\tmetric\ttime\thash\tinstrument\t`, the line's first columns. */
  heads: string[];
  /** Per point: `\tstring_keys\tstring_values\tannotations\n`, the line's last columns. */
  tails: string[];
  /** Per point, STAT_FIELDS numbers: project, definition, time (Unix s), count, sum, min, max. */
  stats: Float64Array;
  /** Buckets of point i (histograms): from bucketEnds[i - 1] (0 for the first) to bucketEnds[i]. */
  bucketEnds: Uint32Array;
  /** Representative value -> count of each bucket. */
  bucketValues: Float64Array;
  bucketCounts: Float64Array;
  /** The request's datapoint lines: what a journal keeps of it. */
  lines: string;
}

export const STAT_FIELDS = 7;

interface Compiled {
  type: 'number' | 'string';
  num: (r: SpanRow) => number;
  txt: (r: SpanRow) => string;
}

/** ClickHouse's toFloat64OrZero(toString(x)): a whole number text or 0. */
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
export function textToNumber(s: string): number {
  if (NUMBER_TEXT.test(s)) return Number(s);
  const l = s.toLowerCase();
  if (l === 'inf' || l === '+inf' || l === 'infinity') return Infinity;
  if (l === '-inf' || l === '-infinity') return -Infinity;
  if (l === 'nan') return NaN;
  return 0;
}

/** ClickHouse's toString of a Float64. */
export function numberToText(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return String(x).replace('e+', 'e');
}

const num = (type: 'number', f: (r: SpanRow) => number): Compiled => ({
  type,
  num: f,
  txt: (r) => numberToText(f(r)),
});
const txt = (f: (r: SpanRow) => string): Compiled => ({ type: 'string', txt: f, num: (r) => textToNumber(f(r)) });
const bool = (b: boolean): number => (b ? 1 : 0);

/** A 64-bit id's decimal text, memoised: BigInt to text costs more than the rest of a row's fold. */
const GROUP_TEXT_MAX = 50_000;
const groupTexts = new Map<bigint, string>();
function groupIdText(id: bigint): string {
  let t = groupTexts.get(id);
  if (t === undefined) {
    t = id.toString();
    if (groupTexts.size >= GROUP_TEXT_MAX) groupTexts.clear();
    groupTexts.set(id, t);
  }
  return t;
}

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

const PROMOTED = new Set<string>(ATTR_COLUMNS.map(([attr]) => attr));
/** `display_name` in spans_index: the group's name (spanRowEncoding). */
const displayName = (r: SpanRow): string => r.groupName ?? r.displayName;
const duration = (r: SpanRow): number => Math.max(0, Math.round(r.durationNs));

const COLUMNS: Record<string, Compiled> = {
  trace_id: txt((r) => r.traceId),
  system: txt((r) => r.system),
  group_id: { type: 'number', num: (r) => Number(r.groupId), txt: (r) => groupIdText(r.groupId) },
  type: txt((r) => r.type),
  kind: txt((r) => r.kind),
  name: txt((r) => r.name),
  event_name: txt((r) => r.eventName),
  display_name: txt(displayName),
  duration: num('number', duration),
  count: num('number', () => 1),
  status_code: txt((r) => r.statusCode),
  status_message: txt((r) => r.statusMessage),
  standalone: num('number', (r) => bool(r.standalone)),
  is_event: num('number', (r) => bool(r.eventName !== '')),
  link_count: num('number', (r) => Math.min(255, r.linkCount)),
  event_count: num('number', (r) => Math.min(255, r.eventCount)),
  event_error_count: num('number', (r) => Math.min(255, r.eventErrorCount)),
  event_log_count: num('number', (r) => Math.min(255, r.eventLogCount)),
};

/** An attribute as the stored row reads it: its column for promoted ones, else the attribute map. */
function attr(key: string): (r: SpanRow) => string {
  if (key === 'display.name') return displayName;
  if (PROMOTED.has(key)) {
    return (r) => {
      const v = r.attrs[key];
      return typeof v === 'string' ? v : '';
    };
  }
  // Keys starting with _ are not stored (spanRowEncoding).
  if (key.startsWith('_')) return () => '';
  return (r) => {
    const v = r.attrs[key];
    return v === undefined ? '' : stringifyAttr(v);
  };
}

export function compileSpanExprJs(e: SpanExpr): Compiled {
  switch (e.kind) {
    case 'number': {
      const v = e.value;
      return num('number', () => v);
    }
    case 'string': {
      const v = e.value;
      return txt(() => v);
    }
    case 'column':
      return COLUMNS[e.name];
    case 'attr':
      return txt(attr(e.key));
    case 'unary': {
      const a = compileSpanExprJs(e.arg).num;
      return e.op === '-' ? num('number', (r) => -a(r)) : num('number', (r) => bool(a(r) === 0));
    }
    case 'binary': {
      const l = compileSpanExprJs(e.left);
      const r = compileSpanExprJs(e.right);
      const [a, b] = [l.num, r.num];
      switch (e.op) {
        case '+':
          return num('number', (x) => a(x) + b(x));
        case '-':
          return num('number', (x) => a(x) - b(x));
        case '*':
          return num('number', (x) => a(x) * b(x));
        case '/':
          return num('number', (x) => a(x) / b(x));
        case 'and':
          return num('number', (x) => bool(a(x) !== 0 && b(x) !== 0));
        case 'or':
          return num('number', (x) => bool(a(x) !== 0 || b(x) !== 0));
      }
      // Text against text compares text; a number on either side compares numbers.
      const both = l.type === 'string' && r.type === 'string';
      const cmp = COMPARE[e.op];
      if (both) {
        const [s, t] = [l.txt, r.txt];
        return num('number', (x) => bool(cmp(s(x), t(x))));
      }
      return num('number', (x) => bool(cmp(a(x), b(x))));
    }
  }
}

const COMPARE: Record<string, <T extends number | string>(a: T, b: T) => boolean> = {
  '=': (a, b) => a === b,
  '!=': (a, b) => a !== b,
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
};

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

const finite = (x: number): number => (Number.isFinite(x) ? x : 0);

/** The numbers of a datapoint line, between its head and its tail. */
export function lineNumbers(count: number, sum: number, min: number, max: number, buckets: string): string {
  return `${finite(min)}\t${finite(max)}\t${finite(sum)}\t${count}\t0\t${buckets}`;
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

/** Adds `n` observations of bucket `b` to [value, count, value, count...] (few buckets: a linear scan). */
function addBucket(b: number[], value: number, n: number): void {
  for (let i = 0; i < b.length; i += 2) {
    if (b[i] === value) {
      b[i + 1] += n;
      return;
    }
  }
  b.push(value, n);
}

/** `([values],[counts])`: a histogram column of a line. */
function bucketsText(b: readonly number[] | null): string {
  if (b === null || b.length === 0) return '([],[])';
  let vs = '';
  let cs = '';
  for (let i = 0; i < b.length; i += 2) {
    vs += (i ? ',' : '') + b[i];
    cs += (i ? ',' : '') + b[i + 1];
  }
  return `([${vs}],[${cs}])`;
}

function packPoints(
  heads: string[],
  tails: string[],
  stats: number[],
  buckets: readonly (number[] | null)[],
): FoldedSpanMetrics {
  const n = heads.length;
  const bucketEnds = new Uint32Array(n);
  let total = 0;
  for (let p = 0; p < n; p++) bucketEnds[p] = total += (buckets[p]?.length ?? 0) / 2;
  const bucketValues = new Float64Array(total);
  const bucketCounts = new Float64Array(total);
  let lines = '';
  for (let p = 0, k = 0; p < n; p++) {
    const b = buckets[p];
    if (b !== null) for (let i = 0; i < b.length; i += 2, k++) [bucketValues[k], bucketCounts[k]] = [b[i], b[i + 1]];
    const s = p * STAT_FIELDS;
    lines +=
      heads[p] +
      lineNumbers(stats[s + COUNT], stats[s + SUM], stats[s + MIN], stats[s + MAX], bucketsText(b)) +
      tails[p];
  }
  return { heads, tails, stats: Float64Array.from(stats), bucketEnds, bucketValues, bucketCounts, lines };
}

/**
 * Points of several requests (and batches) folded together by head: the same series and minute
 * make one row. The batch writer keeps these between its inserts (spanMetricWriter.ts).
 */
export class SpanMetricFold {
  private readonly at = new Map<string, number>();
  private heads: string[] = [];
  private tails: string[] = [];
  private stats: number[] = [];
  private buckets: (number[] | null)[] = [];

  get size(): number {
    return this.heads.length;
  }

  add(f: FoldedSpanMetrics): void {
    const { heads, stats, bucketEnds, bucketValues, bucketCounts } = f;
    for (let p = 0; p < heads.length; p++) {
      const from = p === 0 ? 0 : bucketEnds[p - 1];
      const s = p * STAT_FIELDS;
      let q = this.at.get(heads[p]);
      if (q === undefined) {
        q = this.heads.length;
        this.at.set(heads[p], q);
        this.heads.push(heads[p]);
        this.tails.push(f.tails[p]);
        for (let i = 0; i < STAT_FIELDS; i++) this.stats.push(i === COUNT || i === SUM ? 0 : stats[s + i]);
        // A histogram point has a bucket at least; a counter's min and max stay 0.
        this.buckets.push(bucketEnds[p] > from ? [] : null);
      }
      const t = q * STAT_FIELDS;
      this.stats[t + COUNT] += stats[s + COUNT];
      this.stats[t + SUM] += stats[s + SUM];
      const b = this.buckets[q];
      if (b !== null) {
        this.stats[t + MIN] = Math.min(this.stats[t + MIN], stats[s + MIN]);
        this.stats[t + MAX] = Math.max(this.stats[t + MAX], stats[s + MAX]);
        for (let k = from; k < bucketEnds[p]; k++) addBucket(b, bucketValues[k], bucketCounts[k]);
      }
    }
  }

  /** The folded points as one list (a fold's own lines; used once, the fold is left as it is). */
  points(): FoldedSpanMetrics {
    return packPoints(this.heads, this.tails, this.stats, this.buckets);
  }
}

/** Positions in a point's stats (STAT_FIELDS of them). */
export const PROJECT = 0;
export const DEF = 1;
export const TIME = 2;
const COUNT = 3;
const SUM = 4;
const MIN = 5;
const MAX = 6;
