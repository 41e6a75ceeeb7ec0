import type { FastifyInstance } from 'fastify';
import { dashboardsRoutes, DashKind, routePath } from '@lantern/shared';
import { parseInput } from '../http/parseInput';
import { registerRawRoute, registerRoute } from '../http/routes';
import { requireProject, type ProjectsService } from '../projects';
import type { DashboardsService } from './dashboards.service';
import type { DashboardsStore } from './dashboards.store';
import type { TemplateGallery } from './templateGallery';

/** The dashboards routes (dashboardsRoutes; spec tracing-and-metrics §Dashboards). No rules here. */
export async function registerDashboardRoutes(
  app: FastifyInstance,
  deps: {
    projects: ProjectsService;
    service: DashboardsService;
    store: DashboardsStore;
    gallery: TemplateGallery;
    siteUrl: string;
  },
): Promise<void> {
  await app.register(async (scope) => {
    // YAML import bodies arrive as text.
    scope.addContentTypeParser(
      ['text/yaml', 'application/yaml', 'application/x-yaml'],
      { parseAs: 'string', bodyLimit: 1024 * 1024 },
      (_r, body, done) => done(null, body),
    );
    const r = dashboardsRoutes;
    const project = (input: { params: { projectId: string } }) =>
      requireProject(deps.projects, input.params.projectId).id;
    const yamlText = (body: unknown) => (typeof body === 'string' ? body : '');
    const s = deps.service;
    const site = deps.siteUrl.replace(/\/$/, '');

    registerRoute(scope, r.dashboards, async (input) => ({ dashboards: await deps.store.list(project(input)) }));
    registerRoute(scope, r.createDashboard, async (input) => ({
      dashboard: await s.create(project(input), input.body.name),
    }));
    // A dashboard from a YAML file (text/yaml body); registered before `:dashId` routes take `yaml` as an id.
    registerRawRoute(scope, r.createDashboardFromYaml, async (input) => ({
      dashboard: await s.createFromYaml(project(input), yamlText(input.rawBody)),
    }));
    registerRoute(scope, r.dashboardTemplates, async (input) => {
      project(input);
      return { templates: deps.gallery.list() };
    });
    registerRoute(scope, r.createDashboardFromTemplate, async (input) => ({
      dashboard: await deps.gallery.create(project(input), input.params.templateId),
    }));
    registerRoute(scope, r.dashboard, async (input) => {
      const pid = project(input);
      const dashboard = await s.requireDash(pid, input.params.dashId);
      return {
        dashboard,
        grid: await deps.store.columns(pid, Number(dashboard.id)),
        yamlUrl: site + routePath(r.dashboardYaml, { projectId: String(pid), dashId: dashboard.id }),
      };
    });
    registerRoute(scope, r.cloneDashboard, async (input) => ({
      dashboard: await s.clone(project(input), input.params.dashId),
    }));
    registerRoute(scope, r.updateDashboard, async (input) => ({
      dashboard: await s.update(project(input), input.params.dashId, input.body),
    }));
    registerRoute(scope, r.updateDashboardTable, async (input) => ({
      dashboard: await s.updateTable(project(input), input.params.dashId, input.body),
    }));
    registerRoute(scope, r.deleteDashboard, async (input) => {
      const pid = project(input);
      const dashboard = await s.requireDash(pid, input.params.dashId);
      if (dashboard.templateId !== '') await deps.store.dismissTemplate(pid, dashboard.templateId);
      await deps.store.remove(pid, Number(dashboard.id));
      return { dashboard };
    });
    for (const [contract, pinned] of [
      [r.pinDashboard, true],
      [r.unpinDashboard, false],
    ] as const) {
      registerRoute(scope, contract, async (input) => {
        const pid = project(input);
        await s.requireDash(pid, input.params.dashId);
        await deps.store.update(pid, Number(input.params.dashId), { pinned }, { edited: true });
        return {};
      });
    }
    registerRawRoute(scope, r.dashboardYaml, async (input, _req, reply) => {
      const { yaml, fileName } = await s.exportYaml(project(input), input.params.dashId);
      return reply
        .type('text/yaml; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName.replace(/[^\w.-]/g, '_')}"`)
        .send(yaml);
    });
    registerRawRoute(scope, r.importDashboardYaml, async (input) => ({
      dashboard: await s.importYaml(project(input), input.params.dashId, yamlText(input.rawBody)),
    }));

    registerRoute(scope, r.layoutGrid, async (input) => ({
      grid: await s.layout(project(input), input.params.dashId, input.body),
    }));
    registerRoute(scope, r.addGridColumn, async (input) => ({
      column: await s.addColumn(project(input), input.params.dashId, input.body),
    }));
    registerRoute(scope, r.updateGridColumn, async (input) => ({
      column: await s.updateColumn(project(input), input.params.dashId, input.params.colId, input.body),
    }));
    registerRawRoute(scope, r.gridColumnYaml, async (input, _req, reply) =>
      reply
        .type('text/yaml; charset=utf-8')
        .send(await s.columnYaml(project(input), input.params.dashId, input.params.colId)),
    );
    registerRoute(scope, r.deleteGridColumn, async (input) => ({
      column: await s.deleteColumn(project(input), input.params.dashId, input.params.colId),
    }));

    registerRoute(scope, r.gauges, async (input) => {
      const pid = project(input);
      const d = await s.requireDash(pid, input.params.dashId);
      const raw = input.rawQuery.dash_kind;
      const kind = raw ? parseInput(DashKind, raw) : undefined;
      return { gauges: await deps.store.gauges(pid, Number(d.id), kind) };
    });
    registerRoute(scope, r.addGauge, async (input) => ({
      gauge: await s.addGauge(project(input), input.params.dashId, input.body),
    }));
    registerRoute(scope, r.reorderGauges, async (input) => ({
      gauges: await s.reorderGauges(project(input), input.params.dashId, input.body),
    }));
    registerRoute(scope, r.updateGauge, async (input) => ({
      gauge: await s.updateGauge(project(input), input.params.dashId, input.params.gaugeId, input.body),
    }));
    registerRoute(scope, r.deleteGauge, async (input) => ({
      gauge: await s.deleteGauge(project(input), input.params.dashId, input.params.gaugeId),
    }));
  });
}
