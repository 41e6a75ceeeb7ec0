import {
  formatMetricAlias,
  parseMetricAlias,
  type ColumnMap,
  type DashboardVariable,
  DashboardTags,
  type GaugeInput,
  type GridColumnInput,
  type MetricAlias,
  MAX_COLUMN_MAP_ENTRIES,
  MAX_DB_INT,
  MAX_NAME_LENGTH,
  MAX_TIMESERIES_MAP_ENTRIES,
  MAX_TEXT_LENGTH,
} from '@lantern/shared';
import { LineCounter, parseAllDocuments, stringify, type YAMLError } from 'yaml';
import { nulPath } from '../http/nulText';
import { readVariablesYaml, variablesToYaml } from './dashboardVariables';
import { GAUGE_LOOK_KEYS, gaugeLookToYaml, readGaugeLookYaml } from './gaugeLook';

/**
 * Dashboard YAML, schema `v1` (reference alerting-dashboards §4.5): the format of export, import
 * and our built-in templates. Parsing collects one error per bad key, with its path
 * (`grid[2].metrics[0]: can't parse metric alias "x"`); unknown keys are errors too, so a typo is
 * never silently dropped. Queries are lists of parts in YAML and `" | "`-joined strings inside.
 */
export interface DashboardSpec {
  id: string;
  name: string;
  /** Dashboard variables (issue 41); none when the YAML has no `variables:`. */
  variables: DashboardVariable[];
  /** The dashboards page filters by tags; a template's one-line description shows in the gallery. */
  tags: string[];
  description: string;
  table: { gauges: GaugeInput[]; metrics: MetricAlias[]; query: string; columns: ColumnMap };
  gridGauges: GaugeInput[];
  grid: GridColumnInput[];
}

export class DashboardYamlError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

type Obj = Record<string, unknown>;

class Reader {
  problems: string[] = [];
  fail(path: string, msg: string): void {
    this.problems.push(`${path}: ${msg}`);
  }
  obj(v: unknown, path: string, keys: readonly string[]): Obj {
    if (v === undefined || v === null) return {};
    if (typeof v !== 'object' || Array.isArray(v)) {
      this.fail(path, 'expected a mapping');
      return {};
    }
    for (const k of Object.keys(v))
      if (!keys.includes(k)) this.fail(path ? `${path}.${k}` : k, `unknown key (expected one of: ${keys.join(', ')})`);
    return v as Obj;
  }
  str(v: unknown, path: string, required = false, max = MAX_TEXT_LENGTH): string {
    if (v === undefined || v === null) {
      if (required) this.fail(path, 'is required');
      return '';
    }
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    if (typeof v !== 'string') {
      this.fail(path, 'expected a string');
      return '';
    }
    if (required && !v.trim()) this.fail(path, "can't be empty");
    if (v.length > max) this.fail(path, `is longer than ${max} characters`);
    return v;
  }
  int(v: unknown, path: string): number {
    if (v === undefined || v === null) return 0;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
      this.fail(path, 'expected a non-negative integer');
      return 0;
    }
    if (v > MAX_DB_INT) this.fail(path, `is larger than ${MAX_DB_INT}`);
    return v;
  }
  /** A key the file names freely (a column, a series): at most MAX_NAME_LENGTH characters. */
  key(k: string, path: string): string {
    if (k.length > MAX_NAME_LENGTH) this.fail(path, `the name is longer than ${MAX_NAME_LENGTH} characters`);
    return k;
  }
  list(v: unknown, path: string): unknown[] {
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) {
      this.fail(path, 'expected a list');
      return [];
    }
    return v;
  }
  metrics(v: unknown, path: string): MetricAlias[] {
    const out: MetricAlias[] = [];
    this.list(v, path).forEach((m, i) => {
      try {
        const parsed = parseMetricAlias(this.str(m, `${path}[${i}]`, true));
        if (parsed.name.length > MAX_NAME_LENGTH || parsed.alias.length > MAX_NAME_LENGTH)
          this.fail(`${path}[${i}]`, `the metric name or alias is longer than ${MAX_NAME_LENGTH} characters`);
        if (out.some((x) => x.alias === parsed.alias))
          this.fail(`${path}[${i}]`, `duplicated metric alias "$${parsed.alias}"`);
        out.push(parsed);
      } catch (err) {
        this.fail(`${path}[${i}]`, (err as Error).message);
      }
    });
    return out;
  }
  query(v: unknown, path: string): string {
    if (typeof v === 'string') return v;
    return this.list(v, path)
      .map((p, i) => this.str(p, `${path}[${i}]`, true))
      .join(' | ');
  }
  columns(v: unknown, path: string): ColumnMap {
    const o = this.obj(v, path, []);
    const out: ColumnMap = {};
    // obj() reported every key as unknown; column names are free, so undo that and check values.
    this.problems = this.problems.filter((p) => !p.startsWith(`${path}.`));
    if (Object.keys(o).length > MAX_COLUMN_MAP_ENTRIES) {
      this.fail(path, `can't have more than ${MAX_COLUMN_MAP_ENTRIES} columns`);
      return out;
    }
    for (const [name, info] of Object.entries(o)) {
      this.key(name, path);
      const c = this.obj(info, `${path}.${name}`, ['unit', 'color']);
      out[name] = {
        unit: this.str(c.unit, `${path}.${name}.unit`, false, MAX_NAME_LENGTH),
        color: this.str(c.color, `${path}.${name}.color`, false, MAX_NAME_LENGTH),
      };
    }
    return out;
  }
}

const TOP_KEYS = [
  'schema',
  'id',
  'name',
  'description',
  'tags',
  'variables',
  'table',
  'grid_gauges',
  'grid',
  'monitors',
] as const;
const GAUGE_KEYS = [
  'name',
  'description',
  'template',
  'metrics',
  'query',
  'columns',
  'grid_query_template',
  ...GAUGE_LOOK_KEYS,
] as const;
const ITEM_COMMON = ['name', 'description', 'width', 'height', 'xAxis', 'yAxis', 'grid_query_template', 'type'];
const ITEM_KEYS: Record<string, readonly string[]> = {
  chart: [...ITEM_COMMON, 'chart', 'metrics', 'query', 'columns', 'styles', 'legend'],
  table: [...ITEM_COMMON, 'metrics', 'query', 'columns'],
  heatmap: [...ITEM_COMMON, 'metric', 'unit', 'query'],
  promql: [...ITEM_COMMON, 'promql', 'chart', 'unit'],
};
const CHART_KINDS = ['line', 'area', 'bar', 'stacked-area', 'stacked-bar'];

/**
 * The first line of the message the YAML library's `prettyErrors` gives an error (`... at line 3,
 * column 5:`, the colon when it would show the line), for the one error a refusal names: the library
 * prettified every error, and a flow nested 100k deep on one line made 786 of them, each copying and
 * scanning the 100k-character line (2.4 of the request's 3.5 s of CPU).
 */
function firstLineOf(err: YAMLError, src: string, lc: LineCounter): string {
  const message = err.message.split('\n')[0];
  if (err.pos[0] === -1) return message;
  const { line, col } = lc.linePos(err.pos[0]);
  let ci = col - 1;
  let lineStr = src.substring(lc.lineStarts[line - 1], lc.lineStarts[line]).replace(/[\n\r]+$/, '');
  if (ci >= 60 && lineStr.length > 80) {
    const trimStart = Math.min(ci - 39, lineStr.length - 79);
    lineStr = '…' + lineStr.substring(trimStart);
    ci -= trimStart - 1;
  }
  if (lineStr.length > 80) lineStr = lineStr.substring(0, 79) + '…';
  if (line > 1 && /^ *$/.test(lineStr.substring(0, ci))) {
    const prev = src.substring(lc.lineStarts[line - 2], lc.lineStarts[line - 1]);
    lineStr = (prev.length > 80 ? prev.substring(0, 79) + '…\n' : prev) + lineStr;
  }
  return `${message} at line ${line}, column ${col}${/[^ ]/.test(lineStr) ? ':' : ''}`;
}

/** The deepest nesting a dashboard's YAML may have: a dashboard needs about 6 levels. */
export const MAX_YAML_DEPTH = 64;

/**
 * How deep a YAML text nests, counted without parsing it: flow collections (`[`, `{` outside quoted
 * scalars and comments) and the compact sequences of a line (`- - -`), the nesting one line can
 * hold; block nesting takes a line and an indent a level, so a body's size bounds it. The parser
 * takes 0.3-1.7 s of the event loop on a 100 KB flow 100k deep before it gives up at its stack's
 * end; this refuses that at once. A `[` in a plain scalar counts too: only 64 of them on end would
 * refuse a text by mistake.
 */
export function yamlNestingDepth(text: string): number {
  let flow = 0;
  let max = 0;
  let quote = 0; // the open quote's char code, 0 when none
  let lineStart = true;
  let sequences = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      lineStart = true;
      sequences = 0;
      continue;
    }
    if (quote !== 0) {
      if (quote === 34 && c === 92)
        i++; // "\x": an escape in a double-quoted scalar
      else if (c === quote) quote = 0;
      continue;
    }
    if (lineStart) {
      // Indentation, then `- ` entries: a compact sequence nests one level per entry.
      if (c === 32) continue;
      if (c === 45 && (text.charCodeAt(i + 1) === 32 || text.charCodeAt(i + 1) === 10)) {
        if (++sequences + flow > max) max = sequences + flow;
        continue;
      }
      lineStart = false;
    }
    if (c === 34 || c === 39) quote = c;
    else if (c === 35 && (i === 0 || text.charCodeAt(i - 1) === 32 || text.charCodeAt(i - 1) === 10)) {
      const end = text.indexOf('\n', i);
      i = (end < 0 ? text.length : end) - 1; // a comment, to the line's end
    } else if (c === 91 || c === 123) {
      if (++flow + sequences > max) max = flow + sequences;
    } else if ((c === 93 || c === 125) && flow > 0) flow--;
  }
  return max;
}

/** Parses every document of a YAML text (templates hold several); errors name the document. */
export function parseDashboardYaml(text: string): DashboardSpec[] {
  if (yamlNestingDepth(text) > MAX_YAML_DEPTH)
    throw new DashboardYamlError([`invalid YAML: nested deeper than ${MAX_YAML_DEPTH} levels`]);
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { prettyErrors: false, lineCounter });
  const specs: DashboardSpec[] = [];
  const problems: string[] = [];
  (Array.isArray(docs) ? docs : [docs]).forEach((doc, i) => {
    const prefix = Array.isArray(docs) && docs.length > 1 ? `document ${i + 1}: ` : '';
    if (doc.errors.length) {
      problems.push(`${prefix}invalid YAML: ${firstLineOf(doc.errors[0], text, lineCounter)}`);
      return;
    }
    let value: unknown;
    try {
      // Aliases are expanded: a few nested ones (a "billion laughs") would make a huge value.
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (err) {
      problems.push(`${prefix}invalid YAML: ${(err as Error).message.split('\n')[0]}`);
      return;
    }
    // YAML escapes (`"\0"`) make what the NUL check of the request body cannot see.
    const nul = nulPath(value, '');
    if (nul !== null) {
      problems.push(`${prefix}${nul || 'the YAML'}: contains a NUL character (U+0000), which cannot be stored`);
      return;
    }
    const r = new Reader();
    const spec = readSpec(value, r);
    if (r.problems.length) problems.push(...r.problems.map((p) => prefix + p));
    else specs.push(spec);
  });
  if (problems.length) throw new DashboardYamlError(problems);
  if (specs.length === 0) throw new DashboardYamlError(['the YAML holds no dashboard']);
  return specs;
}

function readSpec(v: unknown, r: Reader): DashboardSpec {
  const top = r.obj(v, '', TOP_KEYS);
  const schema = r.str(top.schema, 'schema', true);
  if (schema && schema !== 'v1') r.fail('schema', `unsupported template schema: "${schema}"`);
  const table = r.obj(top.table, 'table', ['gauges', 'metrics', 'query', 'columns']);
  const tableMetrics = r.metrics(table.metrics, 'table.metrics');
  if (tableMetrics.length > 6) r.fail('table.metrics', "you can't use more than 6 metrics in a single table");
  return {
    id: r.str(top.id, 'id', true),
    name: r.str(top.name, 'name', true, MAX_NAME_LENGTH),
    description: r.str(top.description, 'description', false, MAX_NAME_LENGTH),
    tags: readTags(top.tags, r),
    variables: readVariablesYaml(top.variables, (path, msg) => r.fail(path, msg)),
    table: {
      gauges: r.list(table.gauges, 'table.gauges').map((g, i) => readGauge(g, `table.gauges[${i}]`, 'table', r)),
      metrics: tableMetrics,
      query: r.query(table.query, 'table.query'),
      columns: r.columns(table.columns, 'table.columns'),
    },
    gridGauges: r.list(top.grid_gauges, 'grid_gauges').map((g, i) => readGauge(g, `grid_gauges[${i}]`, 'grid', r)),
    grid: r.list(top.grid, 'grid').map((g, i) => readItem(g, `grid[${i}]`, r)),
  };
}

function readTags(v: unknown, r: Reader): string[] {
  const tags = r.list(v, 'tags').map((t, i) => r.str(t, `tags[${i}]`, true, MAX_NAME_LENGTH));
  const parsed = DashboardTags.safeParse(tags);
  if (!parsed.success) r.fail('tags', parsed.error.issues[0].message);
  return parsed.success ? parsed.data : [];
}

function readGauge(v: unknown, path: string, dashKind: 'grid' | 'table', r: Reader): GaugeInput {
  const g = r.obj(v, path, GAUGE_KEYS);
  return {
    dashKind,
    name: r.str(g.name, `${path}.name`, true, MAX_NAME_LENGTH),
    description: r.str(g.description, `${path}.description`),
    template: r.str(g.template, `${path}.template`),
    metrics: r.metrics(g.metrics, `${path}.metrics`),
    query: r.query(g.query, `${path}.query`),
    columnMap: r.columns(g.columns, `${path}.columns`),
    gridQueryTemplate: r.str(g.grid_query_template, `${path}.grid_query_template`),
    ...readGaugeLookYaml(g, path, (p, msg) => r.fail(p, msg)),
  };
}

function readItem(v: unknown, path: string, r: Reader): GridColumnInput {
  const type = (
    v && typeof v === 'object' && 'type' in v ? String((v as Obj).type) : 'chart'
  ) as GridColumnInput['type'];
  if (!ITEM_KEYS[type]) {
    r.fail(`${path}.type`, `unsupported grid column type: "${type}"`);
    return {
      type: 'chart',
      name: '',
      description: '',
      gridQueryTemplate: '',
      width: 0,
      height: 0,
      xAxis: 0,
      yAxis: 0,
      params: { chartKind: 'line', metrics: [], query: '', columnMap: {}, timeseriesMap: {} },
    };
  }
  const o = r.obj(v, path, ITEM_KEYS[type]);
  const common = {
    name: r.str(o.name, `${path}.name`, true, MAX_NAME_LENGTH),
    description: r.str(o.description, `${path}.description`),
    gridQueryTemplate: r.str(o.grid_query_template, `${path}.grid_query_template`),
    width: r.int(o.width, `${path}.width`),
    height: r.int(o.height, `${path}.height`),
    xAxis: r.int(o.xAxis, `${path}.xAxis`),
    yAxis: r.int(o.yAxis, `${path}.yAxis`),
  };
  if (type === 'heatmap') {
    return {
      ...common,
      type,
      params: {
        metric: r.str(o.metric, `${path}.metric`, true, MAX_NAME_LENGTH),
        unit: r.str(o.unit, `${path}.unit`, false, MAX_NAME_LENGTH),
        query: r.query(o.query, `${path}.query`),
      },
    };
  }
  if (type === 'promql') {
    const chartKind = r.str(o.chart, `${path}.chart`) || 'line';
    if (!CHART_KINDS.includes(chartKind)) r.fail(`${path}.chart`, `unsupported chart kind: "${chartKind}"`);
    return {
      ...common,
      type,
      params: {
        query: r.str(o.promql, `${path}.promql`, true),
        chartKind: chartKind as 'line',
        unit: r.str(o.unit, `${path}.unit`, false, MAX_NAME_LENGTH),
      },
    };
  }
  const metrics = r.metrics(o.metrics, `${path}.metrics`);
  const query = r.query(o.query, `${path}.query`);
  const columnMap = r.columns(o.columns, `${path}.columns`);
  if (type === 'table') return { ...common, type, params: { metrics, query, columnMap } };
  let chartKind = r.str(o.chart, `${path}.chart`);
  if (!chartKind) chartKind = metrics.length === 1 && !/group by/i.test(query) ? 'area' : 'line';
  if (!CHART_KINDS.includes(chartKind)) r.fail(`${path}.chart`, `unsupported chart kind: "${chartKind}"`);
  const styles = r.obj(o.styles, `${path}.styles`, []);
  r.problems = r.problems.filter((p) => !p.startsWith(`${path}.styles.`));
  const timeseriesMap: Record<
    string,
    { color: string; opacity: number; lineWidth: number; symbol: string; symbolSize: number }
  > = {};
  const tooMany = Object.keys(styles).length > MAX_TIMESERIES_MAP_ENTRIES;
  if (tooMany) r.fail(`${path}.styles`, `can't have more than ${MAX_TIMESERIES_MAP_ENTRIES} series`);
  for (const [series, st] of tooMany ? [] : Object.entries(styles)) {
    r.key(series, `${path}.styles`);
    const s = r.obj(st, `${path}.styles.${series}`, ['color', 'opacity', 'line_width', 'symbol', 'symbol_size']);
    timeseriesMap[series] = {
      color: r.str(s.color, `${path}.styles.${series}.color`, false, MAX_NAME_LENGTH),
      opacity: s.opacity === undefined ? 15 : r.int(s.opacity, `${path}.styles.${series}.opacity`),
      lineWidth: s.line_width === undefined ? 2 : r.int(s.line_width, `${path}.styles.${series}.line_width`),
      symbol:
        s.symbol === undefined ? 'none' : r.str(s.symbol, `${path}.styles.${series}.symbol`, false, MAX_NAME_LENGTH),
      symbolSize: s.symbol_size === undefined ? 4 : r.int(s.symbol_size, `${path}.styles.${series}.symbol_size`),
    };
  }
  let legend:
    | { type: 'none' | 'list' | 'table'; placement: 'bottom' | 'right'; values: ('avg' | 'last' | 'min' | 'max')[] }
    | undefined;
  if (o.legend !== undefined) {
    const l = r.obj(o.legend, `${path}.legend`, ['type', 'placement', 'values']);
    const lt = r.str(l.type, `${path}.legend.type`) || 'list';
    const lp = r.str(l.placement, `${path}.legend.placement`) || 'bottom';
    const lv = r.list(l.values, `${path}.legend.values`).map((x) => String(x));
    if (!['none', 'list', 'table'].includes(lt))
      r.fail(`${path}.legend.type`, `expected none, list or table, got "${lt}"`);
    if (!['bottom', 'right'].includes(lp)) r.fail(`${path}.legend.placement`, `expected bottom or right, got "${lp}"`);
    const badValue = lv.find((x) => !['avg', 'last', 'min', 'max'].includes(x));
    if (badValue) r.fail(`${path}.legend.values`, `expected avg, last, min or max, got "${badValue}"`);
    legend = { type: lt as 'list', placement: lp as 'bottom', values: lv as 'avg'[] };
  }
  return {
    ...common,
    type: 'chart',
    params: { chartKind: chartKind as 'line', metrics, query, columnMap, timeseriesMap, ...(legend ? { legend } : {}) },
  };
}

/** Export (reference §4.5): keys in the order schema, id, name, variables, table, grid_gauges, grid. */
export function dashboardToYaml(spec: DashboardSpec): string {
  const parts = (q: string) =>
    q
      .split(' | ')
      .map((p) => p.trim())
      .filter(Boolean);
  const columns = (c: ColumnMap) => (Object.keys(c).length ? c : undefined);
  const gauge = (g: GaugeInput) =>
    clean({
      name: g.name,
      description: g.description || undefined,
      template: g.template || undefined,
      metrics: g.metrics.map(formatMetricAlias),
      query: parts(g.query),
      columns: columns(g.columnMap),
      grid_query_template: g.gridQueryTemplate || undefined,
      ...gaugeLookToYaml(g),
    });
  const doc = clean({
    schema: 'v1',
    id: spec.id,
    name: spec.name,
    description: spec.description || undefined,
    tags: spec.tags.length ? spec.tags : undefined,
    variables: variablesToYaml(spec.variables),
    table: clean({
      gauges: spec.table.gauges.length ? spec.table.gauges.map(gauge) : undefined,
      metrics: spec.table.metrics.length ? spec.table.metrics.map(formatMetricAlias) : undefined,
      query: spec.table.query ? parts(spec.table.query) : undefined,
      columns: columns(spec.table.columns),
    }),
    grid_gauges: spec.gridGauges.length ? spec.gridGauges.map(gauge) : undefined,
    grid: spec.grid.map(gridItem),
  });
  return stringify(doc, { lineWidth: 0 });
}

/** One grid item as the dashboard export writes it (a panel's 'Copy as YAML'). */
export function gridColumnToYaml(c: GridColumnInput): string {
  return stringify([gridItem(c)], { lineWidth: 0 });
}

function gridItem(c: GridColumnInput): Obj {
  const parts = (q: string) =>
    q
      .split(' | ')
      .map((p) => p.trim())
      .filter(Boolean);
  const columns = (m: ColumnMap) => (Object.keys(m).length ? m : undefined);
  const common = {
    name: c.name,
    description: c.description || undefined,
    width: c.width,
    height: c.height,
    xAxis: c.xAxis,
    yAxis: c.yAxis,
    grid_query_template: c.gridQueryTemplate || undefined,
    type: c.type,
  };
  if (c.type === 'heatmap')
    return clean({
      ...common,
      metric: c.params.metric,
      unit: c.params.unit || undefined,
      query: parts(c.params.query),
    });
  if (c.type === 'promql')
    return clean({ ...common, promql: c.params.query, chart: c.params.chartKind, unit: c.params.unit || undefined });
  const base = {
    ...common,
    metrics: c.params.metrics.map(formatMetricAlias),
    query: parts(c.params.query),
    columns: columns(c.params.columnMap),
  };
  if (c.type === 'table') return clean(base);
  const styles = Object.fromEntries(
    Object.entries(c.params.timeseriesMap ?? {}).map(([k, s]) => [
      k,
      { color: s.color, opacity: s.opacity, line_width: s.lineWidth, symbol: s.symbol, symbol_size: s.symbolSize },
    ]),
  );
  return clean({
    ...base,
    chart: c.params.chartKind,
    styles: Object.keys(styles).length ? styles : undefined,
    legend: c.params.legend,
  });
}

function clean(o: Obj): Obj {
  return Object.fromEntries(
    Object.entries(o).filter(
      ([, v]) =>
        v !== undefined &&
        !(Array.isArray(v) && v.length === 0) &&
        !(v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0),
    ),
  );
}
