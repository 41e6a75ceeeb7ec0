import { readdirSync, readFileSync } from 'node:fs';
import type { GaugeInput, GridColumnInput } from '@lantern/shared';
import { SERVER_ROOT } from '../paths';
import { dashboardToYaml, parseDashboardYaml, type DashboardSpec } from './dashboardYaml';
import { specFields, type DashboardsService } from './dashboards.service';
import type { DashboardsStore } from './dashboards.store';

/**
 * Built-in dashboard templates (`templates/*.yml`, our own YAML for common OpenTelemetry semantic
 * conventions) and their installation per project (reference alerting-dashboards §4.6):
 * - a template is installed once every metric of its table exists in the project, with the grid
 *   items and gauges whose metrics exist (none left: not installed);
 * - an installed dashboard is rebuilt when the template's result changes (new metrics appeared),
 *   but never once a user changed it in any way (rename, pin, layout, items, YAML...): the
 *   reference rebuilt pinned or re-laid-out dashboards and lost those edits;
 * - a template whose dashboard the user deleted is not installed again in that project.
 * Runs at start and when ingest sees metrics new to a project (debounced, one run per project at
 * a time).
 */
const DIR = new URL('src/dashboards/templates/', SERVER_ROOT);

export function loadTemplates(): DashboardSpec[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.yml'))
    .sort()
    .flatMap((f) => parseDashboardYaml(readFileSync(new URL(f, DIR), 'utf8')));
}

/** The Lantern metrics an item reads (a PromQL panel names none the template could check). */
const itemMetrics = (c: GridColumnInput) =>
  c.type === 'heatmap' ? [c.params.metric] : c.type === 'promql' ? [] : c.params.metrics.map((m) => m.name);
const gaugeMetrics = (g: GaugeInput) => g.metrics.map((m) => m.name);

/** The template as it applies to a project with the given metrics, or null when it does not apply. */
export function applicableTemplate(spec: DashboardSpec, present: ReadonlySet<string>): DashboardSpec | null {
  if (spec.table.metrics.some((m) => !present.has(m.name))) return null;
  const grid = spec.grid.filter((c) => itemMetrics(c).every((m) => present.has(m)));
  if (grid.length === 0) return null;
  const keep = (g: GaugeInput) => gaugeMetrics(g).every((m) => present.has(m));
  return {
    ...spec,
    grid,
    table: { ...spec.table, gauges: spec.table.gauges.filter(keep) },
    gridGauges: spec.gridGauges.filter(keep),
  };
}

export function createTemplateInstaller(deps: {
  templates: DashboardSpec[];
  store: DashboardsStore;
  service: DashboardsService;
  /** Which of these metric names the project has. */
  presentMetrics: (projectId: number, names: string[]) => Promise<string[]>;
  log: { error(obj: object, msg: string): void };
  debounceMs?: number;
}) {
  const allNames = [
    ...new Set(
      deps.templates.flatMap((t) => [
        ...t.table.metrics.map((m) => m.name),
        ...t.grid.flatMap(itemMetrics),
        ...[...t.table.gauges, ...t.gridGauges].flatMap(gaugeMetrics),
      ]),
    ),
  ];
  const running = new Map<number, Promise<void>>();
  const timers = new Map<number, NodeJS.Timeout>();

  async function sync(projectId: number): Promise<number> {
    const present = new Set(await deps.presentMetrics(projectId, allNames));
    const dismissed = await deps.store.dismissedTemplates(projectId);
    let installed = 0;
    for (const template of deps.templates) {
      if (dismissed.has(template.id)) continue;
      const spec = applicableTemplate(template, present);
      if (!spec) continue;
      const existing = await deps.store.byTemplate(projectId, spec.id);
      if (existing?.edited) continue;
      const { fields, grid, gauges } = specFields(spec);
      if (existing) {
        const current = await deps.service.exportYaml(projectId, existing.id);
        const next = renderForCompare(spec);
        if (current.yaml === next) continue;
      }
      await deps.store.save(
        projectId,
        existing ? Number(existing.id) : null,
        fields,
        { grid, gauges },
        { edited: false, pinned: existing?.pinned },
      );
      installed++;
    }
    return installed;
  }

  return {
    /** Installs or refreshes what applies now; resolves with the number of dashboards written. */
    run(projectId: number): Promise<number> {
      const prev = running.get(projectId) ?? Promise.resolve();
      let result = 0;
      const next = prev.then(async () => {
        result = await sync(projectId);
      });
      running.set(
        projectId,
        next.catch(() => undefined),
      );
      return next.then(() => result);
    },
    /** Debounced run after new metrics appear; errors are logged (ingest must not fail for this). */
    schedule(projectId: number): void {
      if (timers.has(projectId)) return;
      timers.set(
        projectId,
        setTimeout(() => {
          timers.delete(projectId);
          this.run(projectId).catch((err: unknown) =>
            deps.log.error({ err, projectId }, 'dashboard template sync failed'),
          );
        }, deps.debounceMs ?? 2000),
      );
    },
    /** Cancels scheduled runs and waits for the ones in progress. */
    async close(): Promise<void> {
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      await Promise.all(running.values());
    },
  };
}

/** The YAML export of a freshly built template dashboard, to tell whether a rebuild changes anything. */
function renderForCompare(spec: DashboardSpec): string {
  const { fields, grid, gauges } = specFields(spec);
  return dashboardToYaml({
    id: spec.id,
    name: fields.name,
    variables: fields.variables,
    tags: fields.tags,
    // A dashboard keeps no description (the gallery reads it from the template), so its export has
    // none: with the template's, every sync saw a change and saved the dashboard again.
    description: '',
    table: {
      gauges: gauges.filter((g) => g.dashKind === 'table'),
      metrics: fields.tableMetrics,
      query: fields.tableQuery,
      columns: fields.tableColumnMap,
    },
    gridGauges: gauges.filter((g) => g.dashKind === 'grid'),
    grid,
  });
}

export type TemplateInstaller = ReturnType<typeof createTemplateInstaller>;
