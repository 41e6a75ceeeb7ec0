import {
  MAX_DASHBOARDS,
  MAX_GAUGES,
  MAX_GRID_ITEMS,
  MAX_NAME_LENGTH,
  parseMetricsQuery,
  type Dashboard,
  type DashboardVariable,
  type GaugeInput,
  type GridColumnInput,
  type MetricAlias,
} from '@lantern/shared';
import { AppError } from '../http/appError';
import { dbId } from '../http/parseInput';
import {
  dashboardToYaml,
  DashboardYamlError,
  gridColumnToYaml,
  parseDashboardYaml,
  type DashboardSpec,
} from './dashboardYaml';
import { parsePromQL, PromQLError } from '../metrics';
import type { DashboardFields, DashboardsStore } from './dashboards.store';
import { promqlWithVariables, queryWithVariables, validateVariables } from './dashboardVariables';
import { gaugeLookProblem } from './gaugeLook';

/**
 * Dashboard rules (reference alerting-dashboards §4.3–4.8): validation with the reference's
 * messages, table grouping derived from the table query, clone, YAML export and import. Handlers
 * call this; persistence is the store's.
 */
const DEFAULT_SIZE: Record<GridColumnInput['type'], [number, number]> = {
  chart: [6, 14],
  table: [12, 21],
  heatmap: [12, 18],
  promql: [6, 14],
};

/** The id a dashboard without a template id exports under (`exportId`). */
const DASHBOARD_EXPORT_ID = /^project_\d+\.dashboard_\d+$/;
const invalid = (code: string, message: string) => new AppError('invalid_input', code, message);
const notFound = (what: string) =>
  new AppError('not_found', `${what}_not_found`, `${what.replace('_', ' ')} not found`);

/** `vars`: the dashboard's variable names (a query may name them: `group by $group`). */
export function queryProblem(query: string, required: boolean, vars: readonly string[] = []): string | null {
  if (!query.trim()) return required ? "query can't be empty" : null;
  const d = parseMetricsQuery(queryWithVariables(query, vars)).diagnostics[0];
  return d ? `can't parse query: ${d.message}` : null;
}

/** A PromQL panel's query: required, and it must parse and type-check (the parser's message, with its position), its `$variables` as one value each. */
function promqlProblem(query: string, vars: readonly string[]): string | null {
  if (!query.trim()) return "query can't be empty";
  try {
    parsePromQL(promqlWithVariables(query, vars));
    return null;
  } catch (err) {
    if (err instanceof PromQLError) return `can't parse PromQL: ${err.message}`;
    throw err;
  }
}

const varNames = (vars: DashboardVariable[]) => vars.map((v) => v.name);

function metricsProblem(metrics: MetricAlias[], max: number, what: string): string | null {
  if (metrics.length === 0) return 'at least one metric is required';
  if (metrics.length > max) return `you can't use more than ${max} metrics in a single ${what}`;
  const seen = new Set<string>();
  for (const m of metrics) {
    if (seen.has(m.alias)) return `duplicated metric alias "$${m.alias}"`;
    seen.add(m.alias);
  }
  return null;
}

export function validateColumn(c: GridColumnInput, vars: readonly string[] = []): GridColumnInput {
  const fail = (reason: string) => invalid('invalid_grid_column', `grid column "${c.name}" is invalid: ${reason}`);
  if (!c.name.trim()) throw fail("grid column name can't be empty");
  if (c.type === 'heatmap') {
    if (!c.params.metric) throw fail("metric can't be empty");
    const q = queryProblem(c.params.query, false, vars);
    if (q) throw fail(q);
  } else if (c.type === 'promql') {
    const q = promqlProblem(c.params.query, vars);
    if (q) throw fail(q);
  } else {
    const m = metricsProblem(c.params.metrics, 5, 'visualization');
    if (m) throw fail(m);
    const q = queryProblem(c.params.query, true, vars);
    if (q) throw fail(q);
  }
  if (c.width === 0 && c.height === 0) {
    const [w, h] = DEFAULT_SIZE[c.type];
    return { ...c, width: w, height: h };
  }
  return c;
}

export function validateGauge(g: GaugeInput, vars: readonly string[] = []): GaugeInput {
  const fail = (reason: string) => invalid('invalid_gauge', `gauge "${g.name}" is invalid: ${reason}`);
  if (!g.name.trim()) throw fail("gauge name can't be empty");
  const m = metricsProblem(g.metrics, 5, 'gauge');
  if (m) throw fail(m);
  const q = queryProblem(g.query, true, vars);
  if (q) throw fail(q);
  const look = gaugeLookProblem(g);
  if (look) throw fail(look);
  return g;
}

/** `group by a, b` parts of the table query -> ['a', 'b'] (the table's row key). */
export function tableGrouping(query: string): string[] {
  const out: string[] = [];
  for (const p of parseMetricsQuery(query).parts) {
    if (p.kind === 'grouping' && !p.grouping.all)
      for (const n of p.grouping.names) if (!out.includes(n.attr)) out.push(n.attr);
  }
  return out;
}

function validateTable(name: string, metrics: MetricAlias[], query: string, vars: readonly string[]): void {
  const fail = (reason: string) => invalid('invalid_dashboard', `dashboard "${name}" is invalid: ${reason}`);
  if (metrics.length > 6) throw fail("you can't use more than 6 metrics in a single table");
  const q = queryProblem(query, false, vars);
  if (q) throw fail(q);
}

/** The dashboard as YAML would describe it. */
export function specFields(spec: DashboardSpec): {
  fields: DashboardFields;
  grid: GridColumnInput[];
  gauges: GaugeInput[];
} {
  const vars = validateVariables(spec.name, spec.variables).map((v) => v.name);
  validateTable(spec.name, spec.table.metrics, spec.table.query, vars);
  return {
    fields: {
      name: spec.name,
      templateId: spec.id,
      gridQuery: '',
      tableMetrics: spec.table.metrics,
      tableQuery: spec.table.query,
      tableGrouping: tableGrouping(spec.table.query),
      tableColumnMap: spec.table.columns,
      variables: spec.variables,
      tags: spec.tags,
    },
    grid: spec.grid.map((c) => validateColumn(c, vars)),
    gauges: [...spec.table.gauges, ...spec.gridGauges].map((g) => validateGauge(g, vars)),
  };
}

/**
 * The parts of a metrics query that cannot run, as a panel would show them (the metrics area's
 * planner, passed in where the app is wired): `part` indexes the query's `|` parts.
 */
export type QueryCheck = (
  projectId: number,
  q: { metrics: MetricAlias[]; query: string },
  mode: 'timeseries' | 'table' | 'gauge',
) => Promise<{ part: number; query: string; error: string }[]>;

/** Without the metrics area (unit tests): the parser's errors only. */
const parseOnly: QueryCheck = async (_projectId, q) =>
  parseMetricsQuery(q.query)
    .parts.map((p, part) => ({ part, query: p.text, error: p.kind === 'error' ? p.message : '' }))
    .filter((p) => p.error);

/**
 * Every query of a YAML dashboard that would not run, each at its path (`grid[1].query[0]`: the
 * YAML lists a query's parts, so the editor marks the very line), with the panel's name and the
 * error the panel would show: a YAML save refuses what would only break on the dashboard.
 */
async function yamlQueryProblems(projectId: number, spec: DashboardSpec, check: QueryCheck): Promise<string[]> {
  type Target = { path: string; label: string; metrics: MetricAlias[]; query: string; mode: Parameters<QueryCheck>[2] };
  const targets: Target[] = [];
  spec.grid.forEach((c, i) => {
    if (c.type === 'chart' || c.type === 'table')
      targets.push({
        path: `grid[${i}].query`,
        label: `panel "${c.name}"`,
        metrics: c.params.metrics,
        query: c.params.query,
        mode: c.type === 'chart' ? 'timeseries' : 'table',
      });
  });
  const gauge = (where: string) => (g: GaugeInput, i: number) =>
    targets.push({
      path: `${where}[${i}].query`,
      label: `gauge "${g.name}"`,
      metrics: g.metrics,
      query: g.query,
      mode: 'gauge',
    });
  spec.gridGauges.forEach(gauge('grid_gauges'));
  spec.table.gauges.forEach(gauge('table.gauges'));
  if (spec.table.metrics.length)
    targets.push({
      path: 'table.query',
      label: 'the table',
      metrics: spec.table.metrics,
      query: spec.table.query,
      mode: 'table',
    });
  const vars = spec.variables.map((v) => v.name);
  const found = await Promise.all(
    targets
      .filter((t) => t.query.trim() && t.metrics.length)
      .map(async (t) =>
        (await check(projectId, { metrics: t.metrics, query: queryWithVariables(t.query, vars) }, t.mode)).map(
          (p) => `${t.path}[${p.part}]: ${t.label}: ${p.query}: ${p.error}`,
        ),
      ),
  );
  return found.flat();
}

export function createDashboardsService(store: DashboardsStore, deps: { checkQuery?: QueryCheck } = {}) {
  const checkQuery = deps.checkQuery ?? parseOnly;
  /** The one dashboard a YAML text holds, refused with every query that would not run. */
  const runnableSpec = async (projectId: number, text: string): Promise<DashboardSpec> => {
    const spec = oneSpec(text);
    const problems = await yamlQueryProblems(projectId, spec, checkQuery);
    if (problems.length) throw invalid('invalid_yaml', problems.join('; '));
    return spec;
  };
  /**
   * What a missing dashboard, grid item or gauge answers: 403 when it exists in another project
   * (or on another dashboard), as monitors, alerts and channels do (reference §4.2, §5.6); else 404.
   */
  const missing = async (what: 'dashboard' | 'grid_column' | 'gauge', id: string): Promise<AppError> => {
    const table = what === 'dashboard' ? 'dashboards' : what === 'grid_column' ? 'dash_grid_columns' : 'dash_gauges';
    const n = dbId(id);
    if (n !== undefined && (await store.exists(table, n)))
      return new AppError('forbidden', 'forbidden', 'access denied');
    return notFound(what);
  };
  const requireDash = async (projectId: number, id: string): Promise<Dashboard> => {
    const n = dbId(id);
    const d = n === undefined ? undefined : await store.get(projectId, n);
    if (!d) throw await missing('dashboard', id);
    return d;
  };
  /** A new dashboard (create, clone, YAML), unless the project has MAX_DASHBOARDS already. */
  const createCapped = async (
    projectId: number,
    f: DashboardFields,
    items: { grid: GridColumnInput[]; gauges: GaugeInput[] },
    opts: { edited: boolean; pinned?: boolean },
  ): Promise<Dashboard> => {
    const d = await store.createCapped(projectId, f, items, opts);
    if (d === 'full')
      throw invalid('too_many_dashboards', `a project can't have more than ${MAX_DASHBOARDS} dashboards`);
    return d;
  };
  const exportId = (d: Dashboard) => d.templateId || `project_${d.projectId}.dashboard_${d.id}`;
  /**
   * The template id a dashboard has after a YAML import (reference §4.8): one that has a template id
   * keeps it and refuses a YAML of another id; one without adopts the YAML's id, unless that id is a
   * dashboard's export id (`project_<n>.dashboard_<n>`, pasted from another dashboard: it names that
   * dashboard, not a template, so this one keeps exporting its own) or another dashboard's template id.
   */
  const adoptedTemplateId = async (d: Dashboard, yamlId: string): Promise<string> => {
    if (d.templateId !== '') {
      if (yamlId !== d.templateId)
        throw invalid('invalid_yaml', `template id does not match: got "${yamlId}", has "${d.templateId}"`);
      return d.templateId;
    }
    if (DASHBOARD_EXPORT_ID.test(yamlId)) return '';
    const holder = await store.byTemplate(d.projectId, yamlId);
    if (holder && holder.id !== d.id)
      throw invalid(
        'invalid_yaml',
        `template id "${yamlId}" is already dashboard "${holder.name}"'s (id ${holder.id}); a template id names one dashboard of a project`,
      );
    return yamlId;
  };

  return {
    requireDash,
    async create(projectId: number, name: string): Promise<Dashboard> {
      if (!name.trim()) throw invalid('invalid_dashboard', 'dashboard name is required');
      return createCapped(
        projectId,
        {
          name,
          templateId: '',
          gridQuery: '',
          tableMetrics: [],
          tableQuery: '',
          tableGrouping: [],
          tableColumnMap: {},
          variables: [],
          tags: [],
        },
        { grid: [], gauges: [] },
        { edited: true },
      );
    },
    async update(
      projectId: number,
      id: string,
      body: { name?: string; gridQuery?: string; variables?: DashboardVariable[]; tags?: string[] },
    ): Promise<Dashboard> {
      const d = await requireDash(projectId, id);
      if (body.name !== undefined && !body.name.trim())
        throw invalid('invalid_dashboard', 'dashboard name is required');
      if (body.variables !== undefined) validateVariables(d.name, body.variables);
      if (body.gridQuery !== undefined) {
        const q = queryProblem(body.gridQuery, false, varNames(body.variables ?? d.variables));
        if (q) throw invalid('invalid_dashboard', `dashboard "${d.name}" is invalid: ${q}`);
      }
      return (await store.update(projectId, Number(id), body, { edited: true }))!;
    },
    async updateTable(
      projectId: number,
      id: string,
      body: { tableMetrics: MetricAlias[]; tableQuery: string; tableColumnMap: Dashboard['tableColumnMap'] },
    ): Promise<Dashboard> {
      const d = await requireDash(projectId, id);
      validateTable(d.name, body.tableMetrics, body.tableQuery, varNames(d.variables));
      return (await store.update(
        projectId,
        Number(id),
        { ...body, tableGrouping: tableGrouping(body.tableQuery) },
        { edited: true },
      ))!;
    },
    async clone(projectId: number, id: string): Promise<Dashboard> {
      const d = await requireDash(projectId, id);
      const grid = await store.columns(projectId, Number(id));
      const gauges = await store.gauges(projectId, Number(id));
      return createCapped(
        projectId,
        {
          // Within the name limit, so the clone can be renamed, exported and imported back as it is.
          name: `${d.name.slice(0, MAX_NAME_LENGTH - ' clone'.length)} clone`,
          templateId: '',
          gridQuery: d.gridQuery,
          tableMetrics: d.tableMetrics,
          tableQuery: d.tableQuery,
          tableGrouping: d.tableGrouping,
          tableColumnMap: d.tableColumnMap,
          variables: d.variables,
          tags: d.tags,
        },
        { grid, gauges },
        { edited: true, pinned: d.pinned },
      );
    },
    async exportYaml(projectId: number, id: string): Promise<{ yaml: string; fileName: string }> {
      const d = await requireDash(projectId, id);
      const grid = await store.columns(projectId, Number(id));
      const gauges = await store.gauges(projectId, Number(id));
      const strip = <T extends object>(x: T) => {
        const {
          id: _i,
          projectId: _p,
          dashId: _d,
          createdAt: _c,
          updatedAt: _u,
          ...rest
        } = x as T & { id: string; projectId: number; dashId: string; createdAt: string; updatedAt: string };
        return rest;
      };
      const spec: DashboardSpec = {
        id: exportId(d),
        name: d.name,
        variables: d.variables,
        tags: d.tags,
        description: '',
        table: {
          gauges: gauges.filter((g) => g.dashKind === 'table').map(strip),
          metrics: d.tableMetrics,
          query: d.tableQuery,
          columns: d.tableColumnMap,
        },
        gridGauges: gauges.filter((g) => g.dashKind === 'grid').map(strip),
        grid: grid.map(strip) as GridColumnInput[],
      };
      return { yaml: dashboardToYaml(spec), fileName: `${spec.id}.yaml` };
    },
    async importYaml(projectId: number, id: string, text: string): Promise<Dashboard> {
      const d = await requireDash(projectId, id);
      const spec = await runnableSpec(projectId, text);
      const templateId = await adoptedTemplateId(d, spec.id);
      const { fields, grid, gauges } = specItems(spec);
      return store.save(
        projectId,
        Number(id),
        { ...fields, templateId, gridQuery: d.gridQuery },
        { grid, gauges },
        { edited: true, pinned: d.pinned },
      );
    },
    /** A new dashboard from a YAML file (the export format); a file that is not one dashboard changes nothing. */
    async createFromYaml(projectId: number, text: string): Promise<Dashboard> {
      return this.createFromSpec(projectId, await runnableSpec(projectId, text));
    },
    /** A new dashboard as a YAML file or a built-in template describes it (no template id: a copy). */
    async createFromSpec(projectId: number, spec: DashboardSpec): Promise<Dashboard> {
      const { fields, grid, gauges } = specItems(spec);
      if (!fields.name.trim()) throw invalid('invalid_yaml', 'name: a dashboard needs a name');
      return createCapped(projectId, { ...fields, templateId: '', gridQuery: '' }, { grid, gauges }, { edited: true });
    },

    async addColumn(projectId: number, dashId: string, input: GridColumnInput) {
      const d = await requireDash(projectId, dashId);
      const c = validateColumn(input, varNames(d.variables));
      const added = await store.insertColumnCapped(projectId, Number(dashId), c, MAX_GRID_ITEMS);
      if (added === 'missing') throw notFound('dashboard');
      if (added === 'full')
        throw invalid('too_many_grid_columns', `dashboard grid can't have more than ${MAX_GRID_ITEMS} columns`);
      return added;
    },
    async updateColumn(projectId: number, dashId: string, colId: string, input: GridColumnInput) {
      const d = await requireDash(projectId, dashId);
      const existing = (await store.columns(projectId, Number(dashId))).find((c) => c.id === colId);
      if (!existing) throw await missing('grid_column', colId);
      if (existing.type !== input.type) throw invalid('invalid_grid_column', 'the type of a grid column cannot change');
      const c = validateColumn(input, varNames(d.variables));
      await store.markEdited(projectId, Number(dashId));
      return (await store.updateColumn(projectId, Number(dashId), Number(colId), c))!;
    },
    /** One grid column's YAML, as the dashboard export writes it (the panel's 'Copy as YAML'). */
    async columnYaml(projectId: number, dashId: string, colId: string): Promise<string> {
      await requireDash(projectId, dashId);
      const existing = (await store.columns(projectId, Number(dashId))).find((c) => c.id === colId);
      if (!existing) throw await missing('grid_column', colId);
      const { id: _i, projectId: _p, dashId: _d, createdAt: _c, updatedAt: _u, ...input } = existing;
      return gridColumnToYaml(input);
    },
    async deleteColumn(projectId: number, dashId: string, colId: string) {
      await requireDash(projectId, dashId);
      const existing = (await store.columns(projectId, Number(dashId))).find((c) => c.id === colId);
      if (!existing) throw await missing('grid_column', colId);
      await store.deleteColumn(projectId, Number(dashId), Number(colId));
      await store.markEdited(projectId, Number(dashId));
      return existing;
    },
    async layout(
      projectId: number,
      dashId: string,
      items: { id: string; width: number; height: number; xAxis: number; yAxis: number }[],
    ) {
      await requireDash(projectId, dashId);
      const ids = new Set((await store.columns(projectId, Number(dashId))).map((c) => c.id));
      const unknown = items.find((i) => !ids.has(i.id));
      if (unknown) throw await missing('grid_column', unknown.id);
      for (const i of items) await store.layoutColumn(projectId, Number(dashId), Number(i.id), i);
      await store.markEdited(projectId, Number(dashId));
      return store.columns(projectId, Number(dashId));
    },

    async addGauge(projectId: number, dashId: string, input: GaugeInput) {
      const d = await requireDash(projectId, dashId);
      const g = validateGauge(input, varNames(d.variables));
      const added = await store.insertGaugeCapped(projectId, Number(dashId), g, MAX_GAUGES);
      if (added === 'missing') throw notFound('dashboard');
      if (added === 'full') throw invalid('too_many_gauges', `dashboard can't have more than ${MAX_GAUGES} gauges`);
      return added;
    },
    async updateGauge(projectId: number, dashId: string, gaugeId: string, input: GaugeInput) {
      const d = await requireDash(projectId, dashId);
      if (!(await store.gauges(projectId, Number(dashId))).some((g) => g.id === gaugeId))
        throw await missing('gauge', gaugeId);
      const g = validateGauge(input, varNames(d.variables));
      await store.markEdited(projectId, Number(dashId));
      return (await store.updateGauge(projectId, Number(dashId), Number(gaugeId), g))!;
    },
    async deleteGauge(projectId: number, dashId: string, gaugeId: string) {
      await requireDash(projectId, dashId);
      const g = (await store.gauges(projectId, Number(dashId))).find((x) => x.id === gaugeId);
      if (!g) throw await missing('gauge', gaugeId);
      await store.deleteGauge(projectId, Number(dashId), Number(gaugeId));
      await store.markEdited(projectId, Number(dashId));
      return g;
    },
    async reorderGauges(projectId: number, dashId: string, order: { id: string; index: number }[]) {
      await requireDash(projectId, dashId);
      const ids = new Set((await store.gauges(projectId, Number(dashId))).map((g) => g.id));
      const unknown = order.find((o) => !ids.has(o.id));
      if (unknown) throw await missing('gauge', unknown.id);
      for (const o of order) await store.setGaugeIndex(projectId, Number(dashId), Number(o.id), o.index);
      await store.markEdited(projectId, Number(dashId));
      return store.gauges(projectId, Number(dashId));
    },
  };
}

export type DashboardsService = ReturnType<typeof createDashboardsService>;

/** The one dashboard a YAML text holds, or a 400 saying what is wrong with it. */
function oneSpec(text: string): DashboardSpec {
  let specs: DashboardSpec[];
  try {
    specs = parseDashboardYaml(text);
  } catch (err) {
    if (err instanceof DashboardYamlError) throw invalid('invalid_yaml', err.message);
    throw err;
  }
  if (specs.length !== 1) throw invalid('invalid_yaml', `expected one dashboard, the YAML holds ${specs.length}`);
  return specs[0];
}

function specItems(spec: DashboardSpec) {
  const items = specFields(spec);
  if (items.grid.length > MAX_GRID_ITEMS)
    throw invalid('invalid_yaml', `dashboard grid can't have more than ${MAX_GRID_ITEMS} columns`);
  if (items.gauges.length > MAX_GAUGES)
    throw invalid('invalid_yaml', `dashboard can't have more than ${MAX_GAUGES} gauges`);
  return items;
}
