import type { TelemetryStore } from '../../storage/telemetry';
import type { SqlFragment } from '../../storage/sql';
import {
  SeriesLimitError,
  type LabelMatcher,
  type Labels,
  type PromSource,
  type SelectRequest,
  type SelectResult,
  type SourceSeries,
} from './engine';
import { boundsOf, cumulativeBuckets, formatLe } from './promBuckets';
import { promNamesOf, type CatalogEntry, type PromColumn, type PromName } from './promNames';
import {
  catalog,
  groupMinutes,
  nodeRegex,
  seriesList,
  seriesMinutes,
  seriesTotalsBefore,
  type Selection,
} from './promSql';

/**
 * PromQL's view of one project's stored metrics (the engine's PromSource): a selector's
 * `__name__` matchers pick stored metrics by their PromQL names (promNames.ts), its other matchers
 * become SQL on the series' attributes (promSql.ts), and the minutes come back as typed arrays.
 * `sum by` over counters is summed in ClickHouse, per minute and group, so the series themselves
 * never reach Node. More series than the limit is a SeriesLimitError; an aborted signal stops
 * between (and abandons waiting for) queries.
 */
export interface PromStoreDeps {
  telemetry: TelemetryStore;
  projectId: number;
  maxSeries: number;
  /** The project's catalogue (default: read for each selector). */
  catalog?: () => Promise<PromCatalog>;
}

export interface PromCatalog {
  entries: CatalogEntry[];
  names: PromName[];
}

/** Every stored metric of the project with its PromQL names. */
export async function promCatalog(telemetry: TelemetryStore, projectId: number): Promise<PromCatalog> {
  const entries = await telemetry.query<CatalogEntry>(catalog(projectId));
  return { entries, names: entries.flatMap(promNamesOf) };
}

/**
 * Each project's catalogue read at most once per `ttlMs`: a Grafana dashboard asks for its panels
 * together, and each selector of each query needs the catalogue (a chDB query of 7-30 ms); a
 * metric new to the project is selectable after at most `ttlMs`. A failed read is not kept.
 */
export function cachedCatalogs(telemetry: TelemetryStore, ttlMs: number): (projectId: number) => Promise<PromCatalog> {
  const cache = new Map<number, { at: number; value: Promise<PromCatalog> }>();
  return (projectId) => {
    const now = Date.now();
    const hit = cache.get(projectId);
    if (hit && now - hit.at < ttlMs) return hit.value;
    const entry = { at: now, value: promCatalog(telemetry, projectId) };
    cache.set(projectId, entry);
    entry.value.catch(() => {
      if (cache.get(projectId) === entry) cache.delete(projectId);
    });
    return entry.value;
  };
}

/** The PromQL names a selector's `__name__` matchers accept. */
export function namesMatching(names: readonly PromName[], matchers: readonly LabelMatcher[]): PromName[] {
  const tests = matchers
    .filter((m) => m.name === '__name__')
    .map((m): ((n: string) => boolean) => {
      if (m.type === '=') return (n) => n === m.value;
      if (m.type === '!=') return (n) => n !== m.value;
      const re = nodeRegex(m.value);
      return m.type === '=~' ? (n) => re.test(n) : (n) => !re.test(n);
    });
  return names.filter((n) => tests.every((t) => t(n.name)));
}

/** `le` matchers apply to derived buckets after they are made (le is not stored for them). */
const isLe = (m: LabelMatcher) => m.name === 'le';

function matches(labels: Labels, m: LabelMatcher): boolean {
  const v = labels[m.name] ?? '';
  switch (m.type) {
    case '=':
      return v === m.value;
    case '!=':
      return v !== m.value;
    case '=~':
      return nodeRegex(m.value).test(v);
    case '!~':
      return !nodeRegex(m.value).test(v);
  }
}

interface SeriesRow {
  metric: string;
  attrs_hash: string;
  string_keys: string[];
  string_values: string[];
}
type NumberPoint = [number, number];
type MapPoint = [number, number[], number[]];

export function createPromSource(deps: PromStoreDeps): PromSource {
  const { telemetry, projectId, maxSeries } = deps;
  const readCatalog = deps.catalog ?? (() => promCatalog(telemetry, projectId));

  const run = async <T>(q: SqlFragment, signal: AbortSignal): Promise<T[]> => {
    signal.throwIfAborted();
    // The store cannot cancel a query: an abort stops waiting for it (its answer is dropped).
    let onAbort = () => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([telemetry.query<T>(q), aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  };

  const tooMany = () =>
    new SeriesLimitError(`the query selects more than ${maxSeries} series (limit: prometheus.max_series)`);

  async function selectColumn(
    req: SelectRequest,
    names: PromName[],
    column: PromColumn,
    watermark: Date | null,
    signal: AbortSignal,
  ): Promise<SelectResult> {
    const metrics = [...new Set(names.map((n) => n.metric))];
    const matchers = req.matchers.filter((m) => m.name !== '__name__' && !(column === 'bucket' && isLe(m)));
    const leMatchers = column === 'bucket' ? req.matchers.filter(isLe) : [];
    const s: Selection = {
      projectId,
      metrics,
      matchers,
      gte: new Date(req.startMs),
      lt: new Date(req.endMs),
      watermark,
    };
    const namesOf = new Map<string, PromName[]>();
    for (const n of names) namesOf.set(n.metric, [...(namesOf.get(n.metric) ?? []), n]);
    const kind = names[0].kind;

    if (req.sumBy && kind === 'counter' && !groupsByName(req.sumBy)) {
      const series = await pushedDown(s, column, req.sumBy, namesOf, leMatchers, signal);
      return { series, pushedDown: true };
    }

    const list = await run<SeriesRow>(seriesList(s, maxSeries + 1), signal);
    if (list.length > maxSeries) throw tooMany();
    if (list.length === 0) return { series: [], pushedDown: false };
    const [minutes, totals] = await Promise.all([
      run<{ metric: string; attrs_hash: string; pts: (NumberPoint | MapPoint)[] }>(seriesMinutes(s, column), signal),
      req.needBase && kind === 'counter'
        ? run<{ metric: string; attrs_hash: string; v: number | [number[], number[]] }>(
            seriesTotalsBefore(s, column),
            signal,
          )
        : Promise.resolve([]),
    ]);
    const key = (r: { metric: string; attrs_hash: string }) => `${r.metric}\u0000${r.attrs_hash}`;
    const ptsOf = new Map(minutes.map((m) => [key(m), m.pts]));
    const totalOf = new Map(totals.map((t) => [key(t), t.v]));
    const out: SourceSeries[] = [];
    if (column === 'bucket') {
      // One set of bounds per stored metric, so every series of it has the same buckets.
      const bounds = new Map<string, number[]>();
      for (const m of metrics)
        bounds.set(
          m,
          boundsOf(minutes.filter((r) => r.metric === m).flatMap((r) => (r.pts as MapPoint[]).map((p) => p[1]))),
        );
      for (const row of list) {
        const pts = (ptsOf.get(key(row)) ?? []) as MapPoint[];
        if (pts.length === 0) continue;
        const b = bounds.get(row.metric) ?? [];
        const cum = cumulativeBuckets(
          pts.map((p) => ({ reps: p[1], counts: p[2] })),
          b,
        );
        const total = totalOf.get(key(row)) as [number[], number[]] | undefined;
        const baseCum = total ? cumulativeBuckets([{ reps: total[0], counts: total[1] }], b) : null;
        const times = Float64Array.from(pts, (p) => p[0] * 1000);
        for (const pn of namesOf.get(row.metric) ?? []) {
          cum.forEach((values, i) => {
            const labels = { ...labelsOf(row), __name__: pn.name, le: formatLe(i < b.length ? b[i] : Infinity) };
            if (!leMatchers.every((m) => matches(labels, m))) return;
            out.push({ labels, kind: 'counter', times, values, base: baseCum ? baseCum[i][0] : 0 });
          });
        }
        if (out.length > maxSeries) throw tooMany();
      }
      return { series: out, pushedDown: false };
    }
    for (const row of list) {
      const pts = (ptsOf.get(key(row)) ?? []) as NumberPoint[];
      if (pts.length === 0) continue;
      const times = Float64Array.from(pts, (p) => p[0] * 1000);
      const values = Float64Array.from(pts, (p) => p[1]);
      const total = totalOf.get(key(row));
      for (const pn of namesOf.get(row.metric) ?? []) {
        out.push({
          labels: { ...labelsOf(row), __name__: pn.name },
          kind: pn.kind,
          times,
          values,
          base: typeof total === 'number' ? total : 0,
        });
      }
    }
    if (out.length > maxSeries) throw tooMany();
    return { series: out, pushedDown: false };
  }

  async function pushedDown(
    s: Selection,
    column: PromColumn,
    g: NonNullable<SelectRequest['sumBy']>,
    namesOf: Map<string, PromName[]>,
    leMatchers: LabelMatcher[],
    signal: AbortSignal,
  ): Promise<SourceSeries[]> {
    const leGrouped = column === 'bucket' && (g.without ? !g.labels.includes('le') : g.labels.includes('le'));
    const rows = await run<{ metric: string; gk: string[]; gv: string[]; pts: (NumberPoint | MapPoint)[] }>(
      groupMinutes(s, column, {
        without: g.without,
        labels: g.labels.filter((l) => l !== 'le' || column !== 'bucket'),
      }),
      signal,
    );
    // Bounds over the whole selection (every group gets every bucket).
    const bounds = column === 'bucket' ? boundsOf(rows.flatMap((r) => (r.pts as MapPoint[]).map((p) => p[1]))) : [];
    // Groups summed across stored metrics (a metric matched under two names counts twice, as two
    // series would in Prometheus).
    const groups = new Map<string, { labels: Labels; byMinute: Map<number, number> }>();
    const add = (labels: Labels, t: number, v: number, times: number) => {
      const k = JSON.stringify(Object.entries(labels).sort());
      let grp = groups.get(k);
      if (!grp) {
        if (groups.size >= maxSeries) throw tooMany();
        grp = { labels, byMinute: new Map() };
        groups.set(k, grp);
      }
      grp.byMinute.set(t, (grp.byMinute.get(t) ?? 0) + v * times);
    };
    for (const r of rows) {
      const times = namesOf.get(r.metric)?.length ?? 1;
      const labels: Labels = {};
      r.gk.forEach((k, i) => {
        if (r.gv[i] !== '') labels[k] = r.gv[i];
      });
      if (column !== 'bucket') {
        for (const [t, v] of r.pts as NumberPoint[]) add(labels, t * 1000, v, times);
        continue;
      }
      const pts = r.pts as MapPoint[];
      const cum = cumulativeBuckets(
        pts.map((p) => ({ reps: p[1], counts: p[2] })),
        bounds,
      );
      cum.forEach((values, i) => {
        const le = formatLe(i < bounds.length ? bounds[i] : Infinity);
        if (!leMatchers.every((m) => matches({ le }, m))) return;
        const l = leGrouped ? { ...labels, le } : labels;
        pts.forEach((p, j) => add(l, p[0] * 1000, values[j], times));
      });
    }
    return [...groups.values()].map(counterSeries);
  }

  return {
    async select(req, signal) {
      const { names } = await readCatalog();
      signal.throwIfAborted();
      const picked = namesMatching(names, req.matchers);
      if (picked.length === 0) return { series: [], pushedDown: false };
      const byColumn = new Map<PromColumn, PromName[]>();
      for (const n of picked) byColumn.set(n.column, [...(byColumn.get(n.column) ?? []), n]);
      // A push-down needs every selected series to be a counter.
      const allCounters = picked.every((n) => n.kind === 'counter');
      const effective = allCounters ? req : { ...req, sumBy: undefined };
      return telemetry.readRollups(async (watermark) => {
        const parts = [];
        for (const [column, names] of byColumn)
          parts.push(await selectColumn(effective, names, column, watermark, signal));
        const pushed = parts.length > 0 && parts.every((p) => p.pushedDown);
        if (!pushed && parts.some((p) => p.pushedDown))
          // Cannot happen: every part of a counter selection pushes down, or none does.
          throw new Error('push-down applied to part of a selection');
        // Groups of several value columns (`{__name__=~"a_total|b_count"}`) with the same labels are one group.
        const series =
          pushed && parts.length > 1 ? mergeGroups(parts.flatMap((p) => p.series)) : parts.flatMap((p) => p.series);
        if (series.length > maxSeries) throw tooMany();
        return { series, pushedDown: pushed };
      });
    },
  };
}

/** `sum by (__name__)` keeps names apart: not pushed down (the engine sums). */
function groupsByName(g: NonNullable<SelectRequest['sumBy']>): boolean {
  return !g.without && g.labels.includes('__name__');
}

function labelsOf(row: SeriesRow): Labels {
  const labels: Labels = {};
  row.string_keys.forEach((k, i) => {
    // PromQL has no empty labels: a label with an empty value is no label.
    if (row.string_values[i] !== '') labels[k] = row.string_values[i];
  });
  return labels;
}

/** Sums series with the same labels minute by minute (push-down groups of several value columns). */
function mergeGroups(series: SourceSeries[]): SourceSeries[] {
  const byKey = new Map<string, { labels: Labels; byMinute: Map<number, number> }>();
  for (const s of series) {
    const k = JSON.stringify(Object.entries(s.labels).sort());
    let g = byKey.get(k);
    if (!g) byKey.set(k, (g = { labels: s.labels, byMinute: new Map() }));
    s.times.forEach((t, i) => g.byMinute.set(t, (g.byMinute.get(t) ?? 0) + s.values[i]));
  }
  return [...byKey.values()].map(counterSeries);
}

/** A group's summed per-minute increases as one counter series (its minutes in order, base 0). */
function counterSeries({ labels, byMinute }: { labels: Labels; byMinute: Map<number, number> }): SourceSeries {
  const times = Float64Array.from([...byMinute.keys()].sort((a, b) => a - b));
  return { labels, kind: 'counter', times, values: Float64Array.from(times, (t) => byMinute.get(t)!), base: 0 };
}
