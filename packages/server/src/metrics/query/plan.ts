import {
  MAX_FILTER_TERMS,
  MAX_GROUP_BY_ATTRS,
  printExpr,
  tooManyFilters,
  tooManyGroupByAttrs,
  type MetricExpr,
  type MetricFilter,
  type Instrument,
  type MetricPart,
  type ParsedMetricsQuery,
  type MetricGrouping,
} from '@lantern/shared';
import { QUANTILES, type Agg, type SeriesQuery, type WhereClause } from './compileSeries';

/**
 * Metrics query semantics (reference query §3.4): turns parsed parts into columns whose
 * expressions point at timeseries queries (one per metric occurrence, deduplicated). Errors are
 * attached to the part that caused them; other parts still run.
 */
export type Mode = 'timeseries' | 'table' | 'gauge';

export interface MetricRef {
  name: string;
  alias: string;
  instrument: Instrument;
  unit: string;
  /** A classic Prometheus histogram joined from its `_bucket` series (Metric.fromBuckets). */
  fromBuckets?: true;
}

export type TableFunc = 'min' | 'max' | 'sum' | 'avg' | 'last';
export type OpFunc = 'per_min' | 'per_sec' | 'delta';

export type PExpr =
  | { k: 'num'; value: number; unit: 'none' | 'duration' | 'bytes'; text: string }
  | { k: 'ref'; name: string }
  | {
      k: 'leaf';
      query: number;
      alias: string;
      filters: MetricFilter[];
      agg: Agg;
      explicitAgg: boolean;
      instrument: Instrument;
      unit: string;
    }
  | { k: 'op'; func: OpFunc; arg: PExpr }
  | { k: 'table'; func: TableFunc; arg: PExpr }
  | { k: 'bin'; op: Extract<MetricExpr, { kind: 'binary' }>['op']; left: PExpr; right: PExpr };

export interface PlannedColumn {
  part: number;
  name: string;
  /** Aliased columns name their series `alias{attrs}`; others decorate the expression text. */
  aliased: boolean;
  source: MetricExpr;
  expr: PExpr;
}

export interface Plan {
  columns: PlannedColumn[];
  queries: SeriesQuery[];
  partErrors: Map<number, string>;
}

export class PlanError extends Error {}

const AGGS = new Set(['min', 'max', 'sum', 'count', 'avg', 'uniq', ...Object.keys(QUANTILES)]);
const TABLE_FUNCS = new Set<string>(['min', 'max', 'sum', 'avg', 'last']);
const OP_FUNCS = new Set<string>(['per_min', 'per_sec', 'delta']);

/** Aggregations each instrument supports; the first is the default when none is written. */
const SUPPORTED: Record<Exclude<Instrument, 'deleted'>, { def: Agg | null; aggs: Agg[] }> = {
  counter: { def: 'sum', aggs: ['sum'] },
  gauge: { def: 'avg', aggs: ['avg', 'sum', 'min', 'max'] },
  additive: { def: 'sum', aggs: ['sum', 'avg', 'min', 'max'] },
  summary: { def: null, aggs: ['avg', 'sum', 'count', 'min', 'max'] },
  histogram: { def: null, aggs: ['avg', 'min', 'max', 'count', 'p50', 'p75', 'p90', 'p95', 'p99'] },
};

export function planQuery(parsed: ParsedMetricsQuery, metrics: readonly MetricRef[], mode: Mode, search = ''): Plan {
  const byAlias = new Map(metrics.map((m) => [m.alias, m]));
  const partErrors = new Map<number, string>();
  const wheres: { alias: string; clause: WhereClause }[] = [];
  const groupings: { alias: string; grouping: MetricGrouping }[] = [];

  parsed.parts.forEach((part, i) => {
    if (part.kind === 'error') partErrors.set(i, part.message);
    else if (part.kind === 'where') {
      const aliases = new Set(part.filters.map((f) => f.alias));
      if (aliases.size > 1)
        return partErrors.set(
          i,
          `where must reference a single metric: ${[...aliases].map((a) => (a ? `"$${a}"` : '""')).join(' != ')}`,
        );
      const alias = [...aliases][0];
      if (alias && !byAlias.has(alias)) return partErrors.set(i, `can't find metric with alias "$${alias}"`);
      wheres.push({ alias, clause: { filters: part.filters, conjunctions: part.conjunctions } });
    } else if (part.kind === 'grouping') {
      if (mode === 'gauge') return partErrors.set(i, 'grouping is forbidden');
      const g = part.grouping;
      const scoped = g.all ? [] : g.names.filter((n) => n.alias);
      if (scoped.length && mode === 'table') return partErrors.set(i, 'individual grouping is forbidden');
      const missing = scoped.find((n) => !byAlias.has(n.alias));
      if (missing) return partErrors.set(i, `can't find metric with alias "$${missing.alias}"`);
      groupings.push({ alias: '', grouping: g });
    }
  });

  const queries: SeriesQuery[] = [];
  const queryIndex = new Map<string, number>();
  const columns: PlannedColumn[] = [];
  const names = new Set<string>();

  parsed.parts.forEach((part, i) => {
    if (part.kind !== 'selector') return;
    try {
      if (part.grouping && mode === 'gauge') throw new PlanError('grouping is forbidden');
      const name = part.alias || printExpr(part.expr);
      if (names.has(name)) throw new PlanError(`column "${name}" already exists`);
      const leaf = (
        series: Extract<MetricExpr, { kind: 'series' }>,
        aggName: string | null,
        uniqAttrs: string[],
      ): PExpr => {
        const m = byAlias.get(series.alias);
        if (!m) throw new PlanError(`can't find metric with alias "$${series.alias}"`);
        if (m.instrument === 'deleted') throw new PlanError(`metric "${m.name}" not found`);
        let agg: Agg;
        if (aggName === 'uniq') agg = 'uniq';
        else if (aggName === null || aggName === 'last') {
          const def = SUPPORTED[m.instrument].def ?? (aggName === 'last' ? 'avg' : null);
          if (!def) throw new PlanError(`${m.instrument} instrument requires a func`);
          agg = def;
        } else {
          if (!SUPPORTED[m.instrument].aggs.includes(aggName as Agg))
            throw new PlanError(`${m.instrument} instrument does not support ${aggName}`);
          agg = aggName as Agg;
        }
        const where = wheres.filter((w) => !w.alias || w.alias === series.alias).map((w) => w.clause);
        const terms = where.reduce((n, w) => n + w.filters.length, series.filters.length);
        // A series' `{...}` filters plus the terms of every `where` part that applies to it.
        if (terms > MAX_FILTER_TERMS) throw new PlanError(tooManyFilters(terms));
        const q: SeriesQuery = {
          metric: m.name,
          instrument: m.instrument,
          agg,
          filters: series.filters,
          where,
          grouping: leafGrouping(part.grouping, groupings, series.alias),
          uniqAttrs,
          search,
          ...(m.fromBuckets ? { fromBuckets: true as const } : {}),
        };
        const key = JSON.stringify(q);
        let idx = queryIndex.get(key);
        if (idx === undefined) {
          idx = queries.push(q) - 1;
          queryIndex.set(key, idx);
        }
        const unit = agg === 'count' || agg === 'uniq' ? '' : m.unit;
        return {
          k: 'leaf',
          query: idx,
          alias: series.alias,
          filters: series.filters,
          agg,
          explicitAgg: aggName !== null && aggName !== 'last',
          instrument: m.instrument,
          unit,
        };
      };
      const plan = (e: MetricExpr): PExpr => {
        switch (e.kind) {
          case 'number':
            return { k: 'num', value: e.value, unit: e.unit, text: e.text };
          case 'paren':
            return plan(e.expr);
          case 'ref':
            if (e.name !== '_minutes' && e.name !== '_seconds' && !names.has(e.name))
              throw new PlanError(`can't resolve name "${e.name}"`);
            return { k: 'ref', name: e.name };
          case 'series':
            return leaf(e, null, []);
          case 'binary':
            return { k: 'bin', op: e.op, left: plan(e.left), right: plan(e.right) };
          case 'call': {
            const f = e.func;
            if (!AGGS.has(f) && !TABLE_FUNCS.has(f) && !OP_FUNCS.has(f))
              throw new PlanError(`unsupported func: "${f}"`);
            if (e.args.length !== 1) throw new PlanError(`"${f}" requires a single arg`);
            const arg = e.args[0];
            if (arg.kind === 'series' && (AGGS.has(f) || f === 'last')) {
              const l = leaf(arg, f, e.attrs);
              return f === 'last' ? { k: 'table', func: 'last', arg: l } : l;
            }
            if (OP_FUNCS.has(f)) return { k: 'op', func: f as OpFunc, arg: plan(arg) };
            if (TABLE_FUNCS.has(f)) return { k: 'table', func: f as TableFunc, arg: plan(arg) };
            throw new PlanError(`"${f}" can be only applied to a timeseries`);
          }
        }
      };
      const expr = plan(part.expr);
      names.add(name);
      columns.push({ part: i, name, aliased: part.alias !== '', source: part.expr, expr });
    } catch (err) {
      if (!(err instanceof PlanError)) throw err;
      partErrors.set(i, err.message);
    }
  });
  return { columns, queries, partErrors };
}

function leafGrouping(
  inline: MetricGrouping | null,
  parts: { grouping: MetricGrouping }[],
  alias: string,
): 'all' | string[] {
  const capped = (attrs: string[]) => {
    if (attrs.length > MAX_GROUP_BY_ATTRS) throw new PlanError(tooManyGroupByAttrs(attrs.length));
    return attrs;
  };
  if (inline) return inline.all ? 'all' : capped(inline.names.map((n) => n.attr));
  const out: string[] = [];
  for (const { grouping } of parts) {
    if (grouping.all) return 'all';
    for (const n of grouping.names) if ((!n.alias || n.alias === alias) && !out.includes(n.attr)) out.push(n.attr);
  }
  return capped(out);
}

/** The parts as the answer reports them: text and error ('' when none). */
export function partInfo(parsed: ParsedMetricsQuery, errors: Map<number, string>): { query: string; error: string }[] {
  return parsed.parts.map((p: MetricPart, i) => ({ query: p.text, error: errors.get(i) ?? '' }));
}
