import {
  DashboardVariable,
  DashboardVariables,
  parseMetricsQuery,
  substitutePromqlVariables,
  substituteVariables,
} from '@lantern/shared';
import { AppError } from '../http/appError';

/**
 * Dashboard variables (issue 41): their rules, their YAML form, and the query a panel is checked
 * as. The values replace `$name` in the metrics routes (shared metricsQuery/variables.ts), so a
 * panel, a monitor or a link made from it runs the same text.
 */

/** Refuses variables that could not be offered: names twice, an attribute without metric, a list without values. */
export function validateVariables(dashName: string, vars: DashboardVariable[]): DashboardVariable[] {
  const problem = variablesProblem(vars);
  if (problem)
    throw new AppError('invalid_input', 'invalid_dashboard', `dashboard "${dashName}" is invalid: ${problem}`);
  return vars;
}

function variablesProblem(vars: DashboardVariable[]): string | null {
  const seen = new Set<string>();
  for (const v of vars) {
    if (seen.has(v.name)) return `variable "${v.name}" is defined twice`;
    seen.add(v.name);
    if (v.kind === 'attribute' && (!v.metric.trim() || !v.attr.trim()))
      return `variable "${v.name}" needs a metric and an attribute`;
    if (v.kind === 'list' && v.values.length === 0) return `variable "${v.name}" needs at least one value`;
    const filter = v.query.trim() ? filterProblem(v, vars) : null;
    if (filter) return `variable "${v.name}" ${filter}`;
  }
  return null;
}

/**
 * A dependent variable's values filter (issue 41): an attribute's variable only, `where` parts only,
 * naming only the variables before it (they are evaluated in order, each picker's values following
 * the picks before it).
 */
function filterProblem(v: DashboardVariable, vars: DashboardVariable[]): string | null {
  if (v.kind !== 'attribute') return "is a fixed list: only an attribute's values take a filter";
  const at = vars.indexOf(v);
  const later = vars.slice(at).find((x) => new RegExp(`\\$${x.name}(?![A-Za-z0-9_])`).test(v.query));
  if (later) return `filters by $${later.name}, which is not defined before it`;
  const before = vars.slice(0, at).map((x) => x.name);
  for (const p of parseMetricsQuery(queryWithVariables(v.query, before)).parts) {
    if (p.kind === 'error') return `has a filter that can't be parsed: ${p.message}`;
    if (p.kind !== 'where') return `has a filter that is not a where part: ${p.text}`;
  }
  return null;
}

/**
 * A panel's query as its checks see it: each variable as All (its filters and grouping names drop),
 * so `group by $group` parses and the rest of the query is checked as written.
 */
export function queryWithVariables(query: string, names: readonly string[]): string {
  return names.length ? substituteVariables(query, new Map(names.map((n) => [n, 'all' as const]))) : query;
}

/**
 * A PromQL panel's query as its checks see it: each variable as one value, its own name (a label
 * value in a matcher, a label name in `by (...)`), so the rest of the query is parsed as written.
 */
export function promqlWithVariables(query: string, names: readonly string[]): string {
  return names.length ? substitutePromqlVariables(query, new Map(names.map((n) => [n, [n]]))) : query;
}

const YAML_KEYS = ['name', 'label', 'metric', 'attribute', 'query', 'values', 'multi', 'all'];

/**
 * `variables:` of a dashboard YAML: `{name, label?, metric, attribute, query?}` offers an attribute's
 * values (of the series `query`, a where filter that may name earlier variables, keeps),
 * `{name, label?, values: [...]}` a fixed list; `multi: true` and `all: true` as in the form.
 * Problems are reported at their path.
 */
export function readVariablesYaml(v: unknown, fail: (path: string, msg: string) => void): DashboardVariable[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) {
    fail('variables', 'expected a list');
    return [];
  }
  const out: DashboardVariable[] = [];
  v.forEach((item, i) => {
    const path = `variables[${i}]`;
    if (!item || typeof item !== 'object' || Array.isArray(item)) return fail(path, 'expected a mapping');
    const o = item as Record<string, unknown>;
    for (const k of Object.keys(o))
      if (!YAML_KEYS.includes(k)) fail(`${path}.${k}`, `unknown key (expected one of: ${YAML_KEYS.join(', ')})`);
    const parsed = DashboardVariable.safeParse({
      name: o.name,
      label: o.label ?? '',
      kind: o.values !== undefined ? 'list' : 'attribute',
      metric: o.metric ?? '',
      attr: o.attribute ?? '',
      query: o.query ?? '',
      values: Array.isArray(o.values)
        ? o.values.map((x: unknown) => (typeof x === 'number' ? String(x) : x))
        : o.values,
      multi: o.multi ?? false,
      includeAll: o.all ?? false,
    });
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] === 'attr' ? 'attribute' : issue.path[0] === 'includeAll' ? 'all' : issue.path[0];
        fail(key === undefined ? path : `${path}.${[key, ...issue.path.slice(1)].join('.')}`, issue.message);
      }
    else out.push(parsed.data);
  });
  const all = DashboardVariables.safeParse(out);
  if (!all.success) fail('variables', all.error.issues[0].message);
  const problem = variablesProblem(out);
  if (problem) fail('variables', problem);
  return out;
}

/** The YAML form of the variables (undefined when there are none). */
export function variablesToYaml(vars: DashboardVariable[]): Record<string, unknown>[] | undefined {
  if (vars.length === 0) return undefined;
  return vars.map((v) => ({
    name: v.name,
    ...(v.label ? { label: v.label } : {}),
    ...(v.kind === 'attribute' ? { metric: v.metric, attribute: v.attr } : { values: v.values }),
    ...(v.query ? { query: v.query } : {}),
    ...(v.multi ? { multi: true } : {}),
    ...(v.includeAll ? { all: true } : {}),
  }));
}
