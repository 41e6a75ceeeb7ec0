import type { AttrDelta, AttrDeltasResponse, DurationHeatmapResponse } from '@lantern/shared';
import { SPAN_SAMPLE_K, type TelemetryStore } from '../../storage/telemetry';
import { bucketGrid, nullableNum } from '../query/buckets';
import type { CompiledQuery } from '../query/compile';
import type { RangeScope } from '../query/scope';
import {
  deltaCountsSql,
  deltaRowsSql,
  durationBinStart,
  durationHeatmapSql,
  FEW_VALUES,
  heatmapBucketMs,
  SAMPLE_SCALE,
  type DeltaSource,
} from './attrDeltasSql';
import { heatmapRollupRanges } from './heatmapRollup';

/**
 * "What changed" (issue 38): the attribute values whose share differs most between the selection
 * (spans matching the query and the selection) and the baseline (matching the query, not the
 * selection), from a deterministic sample by trace id of at most about SAMPLE_SPANS spans a side.
 *
 * - A key's score is the largest difference, in percentage points, between a value's share of the
 *   selection and its share of the baseline (shares of all the side's spans, so a key missing on one
 *   side shows as its values' shares dropping there).
 * - A key whose every value is a number, with more than FEW_VALUES distinct ones, is compared by
 *   ten quantile bins of its values over both sides (`numeric`): a bin holds a tenth of all spans,
 *   and the selection's share of it says where its values sit.
 * - Left out: the keys the selection tests (they differ by construction); a key with one value on
 *   every span of both sides (the service of a one-service query: nothing to tell); keys on fewer than 1% of
 *   both sides' sampled spans (or fewer than MIN_SPANS); unique or near-unique keys, whose distinct
 *   values are more than half the spans that have them (ids, messages), and numeric ones of that
 *   kind whose values are all at least 10^9 (ids, timestamps); `.duration` is always compared.
 *
 * Where the sample is read: spans_sample (every row of 2 % of traces, by the same hash) when both
 * sides are large enough, spans_index otherwise. A side whose rate is within the 2 % gets the very
 * rows spans_index would give; a side whose rate would be above it (the 105,000 errors among 10M
 * spans: 19 %) is compared over its 2 %, if that is at least TABLE_MIN_SPANS spans. The counts
 * stay exact, from spans_index.
 */

/**
 * Spans compared per side at most (about): the sample rate of each side is this over its count. A
 * share from 20,000 spans is within ~0.7 points of the whole's (two standard errors at 50 %); the
 * pairs of each sampled span are most of a request's time once the rows are read from spans_sample
 * (50,000 a side took about twice as long: docs/benchmarks.md, "What changed").
 */
export const SAMPLE_SPANS = 20_000;
/** A side is read from spans_sample only if its 2 % there is at least this many spans. */
export const TABLE_MIN_SPANS = 2_000;
const MIN_SPANS = 5;
const MAX_KEYS = 30;
const MAX_VALUES = 10;

type Triple = [string, number | string, number | string];
interface DeltaRow {
  k: string;
  distinctValues: number | string;
  ps: number | string;
  pb: number | string;
  isNum: number | boolean;
  topS: Triple[];
  topB: Triple[];
  edges: (number | string)[];
  bins: [number | string, number | string][];
  lo: number | string;
  hi: number | string;
}

const num = (v: unknown): number => nullableNum(v) ?? 0;

/**
 * `sampleSpans`: spans compared per side at most (SAMPLE_SPANS; a test sets fewer to sample small
 * data); `tableMinSpans`: TABLE_MIN_SPANS; `sampleTable: false` reads spans_index only (the bench's A/B).
 */
export function createAttrDeltasService(
  store: TelemetryStore,
  opts: { sampleSpans?: number; tableMinSpans?: number; sampleTable?: boolean } = {},
) {
  const target = opts.sampleSpans ?? SAMPLE_SPANS;
  const tableMin = opts.tableMinSpans ?? TABLE_MIN_SPANS;
  const rate = (count: number) =>
    count <= target ? SAMPLE_SCALE : Math.max(1, Math.ceil((SAMPLE_SCALE * target) / count));
  /** Both sides' hash bounds and where to read them (see above). */
  const plan = (ns: number, nb: number): { kS: number; kB: number; source: DeltaSource } => {
    const kS = rate(ns);
    const kB = rate(nb);
    const fits = (k: number, count: number) => k <= SPAN_SAMPLE_K || (count * SPAN_SAMPLE_K) / SAMPLE_SCALE >= tableMin;
    if (opts.sampleTable !== false && fits(kS, ns) && fits(kB, nb))
      return { kS: Math.min(kS, SPAN_SAMPLE_K), kB: Math.min(kB, SPAN_SAMPLE_K), source: 'sample' };
    return { kS, kB, source: 'index' };
  };
  return {
    async attrDeltas(
      scope: RangeScope,
      q: CompiledQuery,
      sel: CompiledQuery,
      tested: ReadonlySet<string>,
    ): Promise<AttrDeltasResponse> {
      const [counts] = await store.query<{ n: unknown; ns: unknown }>(deltaCountsSql(scope, q, sel));
      const n = num(counts?.n);
      const ns = num(counts?.ns);
      const nb = n - ns;
      if (ns === 0) return { attrs: [], selection: { count: 0, sampled: 0 }, baseline: { count: nb, sampled: 0 } };
      const rows = await store.query<DeltaRow>(deltaRowsSql(scope, q, sel, plan(ns, nb)));
      const totals = rows.find((r) => r.k === '');
      const S = num(totals?.ps);
      const B = num(totals?.pb);
      const pct = (count: unknown, total: number) => (total > 0 ? (num(count) * 100) / total : 0);
      const attrs: AttrDelta[] = [];
      for (const r of rows) {
        if (r.k === '' || tested.has(r.k)) continue;
        const ps = num(r.ps);
        const pb = num(r.pb);
        const few = (p: number, total: number) => p < Math.max(MIN_SPANS, total / 100);
        if (few(ps, S) && few(pb, B)) continue;
        const isNum = Boolean(num(r.isNum));
        const distinct = num(r.distinctValues);
        // One value on every span of both sides: nothing to tell.
        if (distinct === 1 && ps === S && pb === B) continue;
        const nearUnique = distinct > FEW_VALUES && distinct > (ps + pb) / 2;
        if (r.k !== '.duration' && nearUnique && (!isNum || num(r.lo) >= 1e9)) continue;
        const values = isNum ? binValues(r, S, B, pct) : topValues(r, S, B, pct);
        if (values.length === 0) continue;
        const score = Math.max(...values.map((v) => Math.abs(v.selectionPct - v.baselinePct)));
        attrs.push({ key: r.k, score: round(score), numeric: isNum, values });
      }
      attrs.sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      return {
        attrs: attrs.slice(0, MAX_KEYS),
        selection: { count: ns, sampled: S },
        baseline: { count: nb, sampled: B },
      };
    },

    async durationHeatmap(scope: RangeScope, q: CompiledQuery): Promise<DurationHeatmapResponse> {
      const rolled = await heatmapRollupRanges(store, scope, q, heatmapBucketMs(scope));
      const built = durationHeatmapSql(scope, q, rolled);
      const rows = await store.query<{ t: unknown; b: unknown; n: unknown }>(built.sql);
      if (rows.length === 0) return { heatmap: { xAxis: [], yAxis: [], data: [] } };
      const step = built.bucketMs;
      const start = Math.floor(scope.gte.getTime() / step) * step;
      const end = Math.ceil(scope.lt.getTime() / step) * step;
      const grid = bucketGrid(new Date(start), new Date(end), step);
      const bins = rows.map((r) => num(r.b));
      const minBin = Math.min(...bins);
      const maxBin = Math.max(...bins);
      const yAxis: [number, number][] = [];
      for (let b = minBin; b <= maxBin; b++) yAxis.push([durationBinStart(b), durationBinStart(b + 1)]);
      const data: [number, number, number][] = [];
      for (const r of rows) {
        const x = Math.floor((num(r.t) * 1000 - start) / step);
        if (x >= 0 && x < grid.points) data.push([x, num(r.b) - minBin, num(r.n)]);
      }
      return { heatmap: { xAxis: grid.time(), yAxis, data } };
    },
  };
}

export type AttrDeltasService = ReturnType<typeof createAttrDeltasService>;

const round = (x: number) => Math.round(x * 100) / 100;

/** The most frequent values of either side, largest difference first. */
function topValues(r: DeltaRow, S: number, B: number, pct: (c: unknown, t: number) => number) {
  const byValue = new Map<string, { ns: unknown; nb: unknown }>();
  for (const [v, ns, nb] of [...r.topS, ...r.topB]) byValue.set(v, { ns, nb });
  return [...byValue]
    .map(([value, c]) => ({ value, selectionPct: round(pct(c.ns, S)), baselinePct: round(pct(c.nb, B)) }))
    .sort(
      (a, b) =>
        Math.abs(b.selectionPct - b.baselinePct) - Math.abs(a.selectionPct - a.baselinePct) ||
        (a.value < b.value ? -1 : 1),
    )
    .slice(0, MAX_VALUES);
}

/** A numeric key's bins in order: [lo, first edge), [edge, next edge), ..., [last edge, hi]. */
function binValues(r: DeltaRow, S: number, B: number, pct: (c: unknown, t: number) => number) {
  const edges = r.edges.map(num);
  const bounds = [num(r.lo), ...edges, num(r.hi)];
  return r.bins
    .map(([ns, nb], i) => ({
      value: `${bounds[i]} .. ${bounds[i + 1]}`,
      range: [bounds[i], bounds[i + 1]] as [number, number],
      selectionPct: round(pct(ns, S)),
      baselinePct: round(pct(nb, B)),
    }))
    .filter((v) => v.selectionPct > 0 || v.baselinePct > 0);
}
