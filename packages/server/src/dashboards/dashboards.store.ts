import {
  GaugeLook,
  MAX_DASHBOARDS,
  type Dashboard,
  type Gauge,
  type GaugeInput,
  type GridColumn,
  type GridColumnInput,
} from '@lantern/shared';
import type { Transaction } from 'kysely';
import { projectHasRoom, type MetadataDb } from '../storage/metadata';
import type { DashboardsTable, DashboardsTables, DashGaugesTable, DashGridColumnsTable } from './dashboards.migration';

/**
 * Dashboards, grid items and gauges in the metadata DB. Every read and write is scoped by
 * project (and by dashboard for items), so an id from another project is not found by them; only
 * `exists` looks across projects (the service answers 403 for what exists elsewhere).
 * JSON fields are text columns (one schema for SQLite and PostgreSQL).
 */
type Row<T> = Omit<T, 'id'> & { id: number };

const now = () => new Date().toISOString();
/** A JSON column as this store wrote it (from a validated input), read back as its field's type. */
const fromJson = <T>(text: string): T => JSON.parse(text) as T;

function toDashboard(r: Row<DashboardsTable>): Dashboard {
  return {
    id: String(r.id),
    projectId: r.project_id,
    templateId: r.template_id,
    name: r.name,
    pinned: Boolean(r.pinned),
    gridQuery: r.grid_query,
    tableMetrics: fromJson<Dashboard['tableMetrics']>(r.table_metrics),
    tableQuery: r.table_query,
    tableGrouping: fromJson<Dashboard['tableGrouping']>(r.table_grouping),
    tableColumnMap: fromJson<Dashboard['tableColumnMap']>(r.table_column_map),
    variables: fromJson<Dashboard['variables']>(r.variables),
    tags: fromJson<Dashboard['tags']>(r.tags),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toColumn(r: Row<DashGridColumnsTable>): GridColumn {
  return {
    id: String(r.id),
    projectId: r.project_id,
    dashId: String(r.dash_id),
    name: r.name,
    description: r.description,
    width: r.width,
    height: r.height,
    xAxis: r.x_axis,
    yAxis: r.y_axis,
    gridQueryTemplate: r.grid_query_template,
    type: r.type as GridColumn['type'],
    params: fromJson<GridColumn['params']>(r.params),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  } as GridColumn;
}

function toGauge(r: Row<DashGaugesTable>): Gauge {
  return {
    id: String(r.id),
    projectId: r.project_id,
    dashId: String(r.dash_id),
    dashKind: r.dash_kind as Gauge['dashKind'],
    name: r.name,
    description: r.description,
    template: r.template,
    metrics: fromJson<Gauge['metrics']>(r.metrics),
    query: r.query,
    columnMap: fromJson<Gauge['columnMap']>(r.column_map),
    gridQueryTemplate: r.grid_query_template,
    ...GaugeLook.parse(fromJson<unknown>(r.look)),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export interface DashboardFields {
  name: string;
  templateId: string;
  gridQuery: string;
  tableMetrics: Dashboard['tableMetrics'];
  tableQuery: string;
  tableGrouping: string[];
  tableColumnMap: Dashboard['tableColumnMap'];
  variables: Dashboard['variables'];
  tags: Dashboard['tags'];
}

const columnValues = (c: GridColumnInput) => ({
  name: c.name,
  description: c.description,
  width: c.width,
  height: c.height,
  x_axis: c.xAxis,
  y_axis: c.yAxis,
  grid_query_template: c.gridQueryTemplate,
  type: c.type,
  params: JSON.stringify(c.params),
});

const gaugeValues = (g: GaugeInput) => ({
  dash_kind: g.dashKind,
  name: g.name,
  description: g.description,
  template: g.template,
  metrics: JSON.stringify(g.metrics),
  query: g.query,
  column_map: JSON.stringify(g.columnMap),
  grid_query_template: g.gridQueryTemplate,
  look: JSON.stringify(GaugeLook.parse(g)),
});

/** A dashboard's own columns, as inserted or saved in place. */
function dashboardRow(f: DashboardFields, opts: { edited: boolean; pinned?: boolean }, t: string) {
  return {
    template_id: f.templateId,
    name: f.name,
    pinned: opts.pinned ? 1 : 0,
    edited: opts.edited ? 1 : 0,
    grid_query: f.gridQuery,
    table_metrics: JSON.stringify(f.tableMetrics),
    table_query: f.tableQuery,
    table_grouping: JSON.stringify(f.tableGrouping),
    table_column_map: JSON.stringify(f.tableColumnMap),
    variables: JSON.stringify(f.variables),
    tags: JSON.stringify(f.tags),
    created_at: t,
    updated_at: t,
  };
}

export function createDashboardsStore(metadata: MetadataDb) {
  const db = metadata.withTables<DashboardsTables>();
  const dashRow = (projectId: number, id: number) =>
    db.selectFrom('dashboards').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();

  /**
   * Adds a grid item or a gauge unless the dashboard holds `max` of them already, and marks the
   * dashboard edited, in one transaction: 'full' when it holds `max` (nothing written), 'missing'
   * when the dashboard is gone. Touching the dashboard's row first locks it (PostgreSQL; SQLite runs
   * one transaction at a time), so concurrent adds count one after the other: counting, then
   * inserting, outside a transaction let a burst of adds overshoot the cap.
   */
  const addCapped = <T>(
    projectId: number,
    dashId: number,
    table: 'dash_grid_columns' | 'dash_gauges',
    max: number,
    insert: (tx: DashboardsStore) => Promise<T>,
  ): Promise<T | 'full' | 'missing'> =>
    db.transaction().execute(async (trx) => {
      const locked = await trx
        .updateTable('dashboards')
        .set((eb) => ({ edited: eb.ref('edited') }))
        .where('project_id', '=', projectId)
        .where('id', '=', dashId)
        .returning('id')
        .executeTakeFirst();
      if (!locked) return 'missing';
      const { n } = await trx
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .where('project_id', '=', projectId)
        .where('dash_id', '=', dashId)
        .executeTakeFirstOrThrow();
      if (Number(n) >= max) return 'full';
      const tx = createDashboardsStore(trx as unknown as MetadataDb);
      await tx.markEdited(projectId, dashId);
      return insert(tx);
    });

  return {
    async list(projectId: number): Promise<Dashboard[]> {
      const rows = await db
        .selectFrom('dashboards')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('pinned', 'desc')
        .orderBy('name')
        .limit(1000)
        .execute();
      return rows.map(toDashboard);
    },
    async get(projectId: number, id: number): Promise<Dashboard | undefined> {
      const r = await dashRow(projectId, id);
      return r && toDashboard(r);
    },
    /** Whether a dashboard, grid item or gauge of this id exists in any project (to tell "not yours" from "no such"). */
    async exists(table: 'dashboards' | 'dash_grid_columns' | 'dash_gauges', id: number): Promise<boolean> {
      const r = await db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst();
      return r !== undefined;
    },
    async byTemplate(projectId: number, templateId: string): Promise<(Dashboard & { edited: boolean }) | undefined> {
      const r = await db
        .selectFrom('dashboards')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('template_id', '=', templateId)
        .executeTakeFirst();
      return r && { ...toDashboard(r), edited: Boolean(r.edited) };
    },
    async insert(
      projectId: number,
      f: DashboardFields,
      opts: { id?: number; edited: boolean; pinned?: boolean },
    ): Promise<Dashboard> {
      const t = now();
      const r = await db
        .insertInto('dashboards')
        .values({
          ...(opts.id !== undefined ? { id: opts.id } : {}),
          project_id: projectId,
          ...dashboardRow(f, opts, t),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toDashboard(r);
    },
    /** Any user change marks the dashboard edited: template sync then leaves it alone. */
    async update(
      projectId: number,
      id: number,
      f: Partial<DashboardFields> & { pinned?: boolean },
      opts: { edited: boolean },
    ): Promise<Dashboard | undefined> {
      const set: Record<string, unknown> = { updated_at: now() };
      if (opts.edited) set.edited = 1;
      if (f.name !== undefined) set.name = f.name;
      if (f.templateId !== undefined) set.template_id = f.templateId;
      if (f.gridQuery !== undefined) set.grid_query = f.gridQuery;
      if (f.tableMetrics !== undefined) set.table_metrics = JSON.stringify(f.tableMetrics);
      if (f.tableQuery !== undefined) set.table_query = f.tableQuery;
      if (f.tableGrouping !== undefined) set.table_grouping = JSON.stringify(f.tableGrouping);
      if (f.tableColumnMap !== undefined) set.table_column_map = JSON.stringify(f.tableColumnMap);
      if (f.variables !== undefined) set.variables = JSON.stringify(f.variables);
      if (f.tags !== undefined) set.tags = JSON.stringify(f.tags);
      if (f.pinned !== undefined) set.pinned = f.pinned ? 1 : 0;
      await db.updateTable('dashboards').set(set).where('project_id', '=', projectId).where('id', '=', id).execute();
      return this.get(projectId, id);
    },
    async remove(projectId: number, id: number): Promise<void> {
      // Items first: SQLite enforces ON DELETE CASCADE only with foreign_keys on.
      await db.deleteFrom('dash_grid_columns').where('project_id', '=', projectId).where('dash_id', '=', id).execute();
      await db.deleteFrom('dash_gauges').where('project_id', '=', projectId).where('dash_id', '=', id).execute();
      await db.deleteFrom('dashboards').where('project_id', '=', projectId).where('id', '=', id).execute();
    },
    /** A user deleted the dashboard of this built-in template: sync must not bring it back. */
    async dismissTemplate(projectId: number, templateId: string): Promise<void> {
      await db
        .insertInto('dash_dismissed_templates')
        .values({ project_id: projectId, template_id: templateId })
        .onConflict((oc) => oc.doNothing())
        .execute();
    },
    async dismissedTemplates(projectId: number): Promise<Set<string>> {
      const rows = await db
        .selectFrom('dash_dismissed_templates')
        .select('template_id')
        .where('project_id', '=', projectId)
        .execute();
      return new Set(rows.map((r) => r.template_id));
    },
    async markEdited(projectId: number, id: number): Promise<void> {
      await db
        .updateTable('dashboards')
        .set({ edited: 1, updated_at: now() })
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .execute();
    },

    async columns(projectId: number, dashId: number): Promise<GridColumn[]> {
      const rows = await db
        .selectFrom('dash_grid_columns')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('dash_id', '=', dashId)
        .orderBy('id')
        .execute();
      return rows.map(toColumn);
    },
    async insertColumn(projectId: number, dashId: number, c: GridColumnInput): Promise<GridColumn> {
      const t = now();
      const r = await db
        .insertInto('dash_grid_columns')
        .values({ project_id: projectId, dash_id: dashId, ...columnValues(c), created_at: t, updated_at: t })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toColumn(r);
    },
    async updateColumn(
      projectId: number,
      dashId: number,
      id: number,
      c: GridColumnInput,
    ): Promise<GridColumn | undefined> {
      const { type: _type, ...values } = columnValues(c); // the type of an item never changes
      await db
        .updateTable('dash_grid_columns')
        .set({ ...values, updated_at: now() })
        .where('project_id', '=', projectId)
        .where('dash_id', '=', dashId)
        .where('id', '=', id)
        .execute();
      return (await this.columns(projectId, dashId)).find((x) => x.id === String(id));
    },
    async layoutColumn(
      projectId: number,
      dashId: number,
      id: number,
      l: { width: number; height: number; xAxis: number; yAxis: number },
    ): Promise<void> {
      await db
        .updateTable('dash_grid_columns')
        .set({ width: l.width, height: l.height, x_axis: l.xAxis, y_axis: l.yAxis, updated_at: now() })
        .where('project_id', '=', projectId)
        .where('dash_id', '=', dashId)
        .where('id', '=', id)
        .execute();
    },
    async deleteColumn(projectId: number, dashId: number, id: number): Promise<void> {
      await db
        .deleteFrom('dash_grid_columns')
        .where('project_id', '=', projectId)
        .where('dash_id', '=', dashId)
        .where('id', '=', id)
        .execute();
    },

    async gauges(projectId: number, dashId: number, kind?: string): Promise<Gauge[]> {
      let q = db
        .selectFrom('dash_gauges')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('dash_id', '=', dashId);
      if (kind) q = q.where('dash_kind', '=', kind);
      const rows = await q.execute();
      // index ASC NULLS LAST, then id (the same in SQLite and PostgreSQL).
      rows.sort((a, b) => (a.idx ?? Infinity) - (b.idx ?? Infinity) || a.id - b.id);
      return rows.map(toGauge);
    },
    async insertGauge(projectId: number, dashId: number, g: GaugeInput, index: number | null = null): Promise<Gauge> {
      const t = now();
      const r = await db
        .insertInto('dash_gauges')
        .values({
          project_id: projectId,
          dash_id: dashId,
          ...gaugeValues(g),
          idx: index,
          created_at: t,
          updated_at: t,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toGauge(r);
    },
    async updateGauge(projectId: number, dashId: number, id: number, g: GaugeInput): Promise<Gauge | undefined> {
      await db
        .updateTable('dash_gauges')
        .set({ ...gaugeValues(g), updated_at: now() })
        .where('project_id', '=', projectId)
        .where('dash_id', '=', dashId)
        .where('id', '=', id)
        .execute();
      return (await this.gauges(projectId, dashId)).find((x) => x.id === String(id));
    },
    async setGaugeIndex(projectId: number, dashId: number, id: number, index: number): Promise<void> {
      await db
        .updateTable('dash_gauges')
        .set({ idx: index })
        .where('project_id', '=', projectId)
        .where('dash_id', '=', dashId)
        .where('id', '=', id)
        .execute();
    },
    async deleteGauge(projectId: number, dashId: number, id: number): Promise<void> {
      await db
        .deleteFrom('dash_gauges')
        .where('project_id', '=', projectId)
        .where('dash_id', '=', dashId)
        .where('id', '=', id)
        .execute();
    },

    /** Adds a grid item unless the dashboard holds `max` already (`addCapped`). */
    insertColumnCapped: (
      projectId: number,
      dashId: number,
      c: GridColumnInput,
      max: number,
    ): Promise<GridColumn | 'full' | 'missing'> =>
      addCapped(projectId, dashId, 'dash_grid_columns', max, (tx) => tx.insertColumn(projectId, dashId, c)),
    /** Adds a gauge unless the dashboard holds `max` already (`addCapped`). */
    insertGaugeCapped: (
      projectId: number,
      dashId: number,
      g: GaugeInput,
      max: number,
    ): Promise<Gauge | 'full' | 'missing'> =>
      addCapped(projectId, dashId, 'dash_gauges', max, (tx) => tx.insertGauge(projectId, dashId, g)),

    /**
     * Writes a whole dashboard with its items in one transaction: a new one (`id` null), or in
     * place of an existing one, keeping its id (YAML import, template sync).
     */
    async save(
      projectId: number,
      id: number | null,
      f: DashboardFields,
      items: { grid: GridColumnInput[]; gauges: GaugeInput[] },
      opts: { edited: boolean; pinned?: boolean },
    ): Promise<Dashboard> {
      return db.transaction().execute((trx) => saveIn(trx, projectId, id, f, items, opts));
    },

    /**
     * A new dashboard with its items, unless the project holds MAX_DASHBOARDS already ('full',
     * nothing written). The count and the insert run in one transaction under the project's lock
     * (`projectHasRoom`), so concurrent creates count one after the other.
     */
    async createCapped(
      projectId: number,
      f: DashboardFields,
      items: { grid: GridColumnInput[]; gauges: GaugeInput[] },
      opts: { edited: boolean; pinned?: boolean },
    ): Promise<Dashboard | 'full'> {
      return db.transaction().execute(async (trx) => {
        if (!(await projectHasRoom(trx, 'dashboards', projectId, MAX_DASHBOARDS))) return 'full';
        return saveIn(trx, projectId, null, f, items, opts);
      });
    },
  };

  async function saveIn(
    trx: Transaction<DashboardsTables>,
    projectId: number,
    id: number | null,
    f: DashboardFields,
    items: { grid: GridColumnInput[]; gauges: GaugeInput[] },
    opts: { edited: boolean; pinned?: boolean },
  ): Promise<Dashboard> {
    const tx = createDashboardsStore(trx as unknown as MetadataDb);
    // A dashboard saved in place keeps its row: updating it first locks it, so two saves of one
    // dashboard run one after the other. (Deleting and inserting it again let a concurrent save
    // on PostgreSQL miss the new row and fail: a duplicate key, or a deadlock over the items.)
    // It keeps its creation time too: only updated_at is now.
    const { created_at: _created, ...row } = dashboardRow(f, opts, now());
    const kept =
      id === null
        ? undefined
        : await trx
            .updateTable('dashboards')
            .set(row)
            .where('project_id', '=', projectId)
            .where('id', '=', id)
            .returningAll()
            .executeTakeFirst();
    if (kept) {
      await trx.deleteFrom('dash_grid_columns').where('project_id', '=', projectId).where('dash_id', '=', id).execute();
      await trx.deleteFrom('dash_gauges').where('project_id', '=', projectId).where('dash_id', '=', id).execute();
    }
    const d = kept ? toDashboard(kept) : await tx.insert(projectId, f, { ...(id !== null ? { id } : {}), ...opts });
    for (const c of items.grid) await tx.insertColumn(projectId, Number(d.id), c);
    for (const [i, g] of items.gauges.entries()) await tx.insertGauge(projectId, Number(d.id), g, i);
    return d;
  }
}

export type DashboardsStore = ReturnType<typeof createDashboardsStore>;
