import { parseAliased, parseSpanExpr, type SpanExpr, type SpanMetricDefinition } from '../../config';
import type { SpanRow } from './spanRow';
import { ATTR_COLUMNS, stringifyAttr } from './spanRowEncoding';

/**
 * Metrics from spans (reference ingest §3.5, docs/decisions/metrics-from-spans.md), computed in
 * JS before the engine: each `metrics_from_spans` definition is compiled once into functions over
 * a span row that give what the stored row's columns would give (the same values as the SQL the
 * materialized views used to run), and an ingest request's rows are folded into one point per
 * (project, definition, minute, attribute values) on the prepare worker that decoded them. The
 * batch writer folds the points of all the batch's requests (`mergeSpanMetricPoints`) and inserts
 * them into `datapoint_minutes` in the batch's write, before the spans (spanMetricWriter.ts).
 *
 * Histograms keep (representative value -> count) buckets, exponential with 8 buckets per
 * doubling (OTel scale 3: each bucket is 9 % wide), so a quantile is within one bucket of the
 * spans' own.
 */
const BUCKETS_PER_DOUBLING = 8;

/** One folded datapoint: what a `datapoint_minutes` row holds. Plain data, so it crosses threads. */
export interface SpanMetricPoint {
  project: number;
  /** Index of the definition. */
  def: number;
  /** Start of the minute, Unix seconds. */
  time: number;
  /** The series' hash (decimal UInt64) from the metric name and attribute values. */
  hash: string;
  values: string[];
  /** JSON of the annotations (first row's values), '' without. */
  annotations: string;
  count: number;
  sum: number;
  min: number;
  max: number;
  /** Histogram buckets (representative value -> count); empty for counters. */
  buckets: [number[], number[]];
}

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
    compiled: defs.map((d) => ({
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
    })),
  };
  if (compiledCache.size > 16) compiledCache.clear();
  compiledCache.set(key, out);
  return out;
}

/** Bucket i covers (b^i, b^(i+1)] with b = 2^(1/8); it is represented by its midpoint. */
export function histogramBucket(v: number): number {
  if (!(v > 0)) return 0;
  const k = BUCKETS_PER_DOUBLING;
  const i = Math.ceil(Math.log2(v) * k);
  return (Math.pow(2, (i - 1) / k) + Math.pow(2, i / k)) / 2;
}

/**
 * The series' identity from the metric name and attribute values: a 53-bit hash (two 32-bit
 * multiply-xorshift lanes, cyrb53) as decimal text. Cheaper than a digest per new series, which
 * the fold meets for most rows when attributes vary a lot; a collision among a million series of
 * one metric and minute has odds of about 1 in 20,000.
 */
export function seriesHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return String(4294967296 * (2097151 & h2) + (h1 >>> 0));
}

/** Adds `n` observations of bucket `b` to parallel arrays (a point has few buckets: a linear scan). */
function addBucket(buckets: [number[], number[]], b: number, n: number): void {
  const [bs, cs] = buckets;
  for (let i = 0; i < bs.length; i++) {
    if (bs[i] === b) {
      cs[i] += n;
      return;
    }
  }
  bs.push(b);
  cs.push(n);
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

/** Folds rows into one point per (project, definition, minute, attribute values). */
export function spanMetricPoints(metrics: CompiledSpanMetrics, rows: readonly SpanRow[]): SpanMetricPoint[] {
  const { compiled } = metrics;
  if (compiled.length === 0 || rows.length === 0) return [];
  const acc = new Map<string, SpanMetricPoint>();
  for (const r of rows) {
    let minute = -1;
    for (let d = 0; d < compiled.length; d++) {
      const def = compiled[d];
      if (def.where !== null && def.where(r) === 0) continue;
      if (minute < 0) minute = minuteOf(r.timeNs);
      const { attrs } = def;
      let key = `${r.projectId}\u0000${minute}\u0000${d}`;
      for (let i = 0; i < attrs.length; i++) key += '\u0000' + attrs[i](r);
      const v = def.value(r);
      let p = acc.get(key);
      if (p === undefined) {
        const values = attrs.map((f) => f(r));
        let seriesText = def.name;
        for (const x of values) seriesText += '\u0000' + x;
        for (let i = 0; i < def.pad; i++) seriesText += '\u0000';
        p = {
          project: r.projectId,
          def: d,
          time: minute,
          hash: seriesHash(seriesText),
          values,
          annotations: annotationJson(def, r),
          count: 0,
          sum: 0,
          min: def.histogram ? v : 0,
          max: def.histogram ? v : 0,
          buckets: [[], []],
        };
        acc.set(key, p);
      }
      p.count++;
      p.sum += v;
      if (def.histogram) {
        if (v < p.min) p.min = v;
        if (v > p.max) p.max = v;
        addBucket(p.buckets, histogramBucket(v), 1);
      }
    }
  }
  return [...acc.values()];
}

/**
 * The points of several requests folded together (the same series and minute in two requests
 * make one row). Takes the lists over: their points may be changed.
 */
export function mergeSpanMetricPoints(lists: readonly (readonly SpanMetricPoint[] | null)[]): SpanMetricPoint[] {
  const nonEmpty = lists.filter((l): l is readonly SpanMetricPoint[] => !!l && l.length > 0);
  if (nonEmpty.length === 1) return [...nonEmpty[0]];
  const acc = new Map<string, SpanMetricPoint>();
  for (const list of nonEmpty) foldSpanMetricPoints(acc, list);
  return [...acc.values()];
}

/**
 * Folds `points` into `acc` (keyed by project, definition, minute and series): a point of a key
 * already there is added to it, a new one is taken over (and changed by later folds).
 */
export function foldSpanMetricPoints(acc: Map<string, SpanMetricPoint>, points: readonly SpanMetricPoint[]): void {
  for (const p of points) {
    const key = `${p.project}\u0000${p.def}\u0000${p.time}\u0000${p.hash}`;
    const q = acc.get(key);
    if (q === undefined) {
      acc.set(key, p);
      continue;
    }
    q.count += p.count;
    q.sum += p.sum;
    const [bs, cs] = p.buckets;
    if (bs.length > 0) {
      q.min = Math.min(q.min, p.min);
      q.max = Math.max(q.max, p.max);
      for (let i = 0; i < bs.length; i++) addBucket(q.buckets, bs[i], cs[i]);
    }
  }
}
