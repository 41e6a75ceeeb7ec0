import type { FastifyInstance } from 'fastify';
import {
  CreateDashboardBody,
  DashKind,
  GaugeInput,
  GaugeOrderBody,
  GridColumnInput,
  GridLayoutBody,
  UpdateDashboardBody,
  UpdateDashboardTableBody,
  type DashboardShowResponse,
} from '@lantern/shared';
import { parseInput } from '../http/parseInput';
import { requireProject, type ProjectsService } from '../projects';
import type { DashboardsService } from './dashboards.service';
import type { DashboardsStore } from './dashboards.store';

/** `/api/v1/metrics/{projectId}/dashboards/...` (spec tracing-and-metrics §Dashboards). No rules here. */
export async function registerDashboardRoutes(
  app: FastifyInstance,
  deps: { projects: ProjectsService; service: DashboardsService; store: DashboardsStore; siteUrl: string },
): Promise<void> {
  await app.register(async (scope) => {
    // YAML import bodies arrive as text.
    scope.addContentTypeParser(
      ['text/yaml', 'application/yaml', 'application/x-yaml'],
      { parseAs: 'string', bodyLimit: 1024 * 1024 },
      (_r, body, done) => done(null, body),
    );
    const base = '/api/v1/metrics/:projectId/dashboards';
    type P = { projectId: string; dashId: string; colId: string; gaugeId: string };
    type R = { Params: P; Body: unknown; Querystring: Record<string, string> };
    const project = (req: { params: P }) => requireProject(deps.projects, req.params.projectId).id;
    const s = deps.service;

    scope.get<R>(base, async (req) => ({ dashboards: await deps.store.list(project(req)) }));
    scope.post<R>(base, async (req) => ({
      dashboard: await s.create(project(req), parseInput(CreateDashboardBody, req.body).name),
    }));
    // A dashboard from a YAML file (text/yaml body); registered before `:dashId` routes take `yaml` as an id.
    scope.post<R>(`${base}/yaml`, async (req) => ({
      dashboard: await s.createFromYaml(project(req), typeof req.body === 'string' ? req.body : ''),
    }));
    scope.get<R>(`${base}/:dashId`, async (req): Promise<DashboardShowResponse> => {
      const pid = project(req);
      const dashboard = await s.requireDash(pid, req.params.dashId);
      return {
        dashboard,
        grid: await deps.store.columns(pid, Number(dashboard.id)),
        yamlUrl: `${deps.siteUrl.replace(/\/$/, '')}/api/v1/metrics/${pid}/dashboards/${dashboard.id}/yaml`,
      };
    });
    scope.post<R>(`${base}/:dashId`, async (req) => ({ dashboard: await s.clone(project(req), req.params.dashId) }));
    scope.put<R>(`${base}/:dashId`, async (req) => ({
      dashboard: await s.update(project(req), req.params.dashId, parseInput(UpdateDashboardBody, req.body)),
    }));
    scope.put<R>(`${base}/:dashId/table`, async (req) => ({
      dashboard: await s.updateTable(project(req), req.params.dashId, parseInput(UpdateDashboardTableBody, req.body)),
    }));
    scope.delete<R>(`${base}/:dashId`, async (req) => {
      const pid = project(req);
      const dashboard = await s.requireDash(pid, req.params.dashId);
      if (dashboard.templateId !== '') await deps.store.dismissTemplate(pid, dashboard.templateId);
      await deps.store.remove(pid, Number(dashboard.id));
      return { dashboard };
    });
    for (const [path, pinned] of [
      ['pinned', true],
      ['unpinned', false],
    ] as const) {
      scope.put<R>(`${base}/:dashId/${path}`, async (req) => {
        const pid = project(req);
        await s.requireDash(pid, req.params.dashId);
        await deps.store.update(pid, Number(req.params.dashId), { pinned }, { edited: true });
        return {};
      });
    }
    scope.get<R>(`${base}/:dashId/yaml`, async (req, reply) => {
      const { yaml, fileName } = await s.exportYaml(project(req), req.params.dashId);
      return reply
        .type('text/yaml; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName.replace(/[^\w.-]/g, '_')}"`)
        .send(yaml);
    });
    scope.put<R>(`${base}/:dashId/yaml`, async (req) => {
      const text = typeof req.body === 'string' ? req.body : '';
      return { dashboard: await s.importYaml(project(req), req.params.dashId, text) };
    });

    scope.put<R>(`${base}/:dashId/grid`, async (req) => ({
      grid: await s.layout(project(req), req.params.dashId, parseInput(GridLayoutBody, req.body)),
    }));
    scope.post<R>(`${base}/:dashId/grid`, async (req) => ({
      column: await s.addColumn(project(req), req.params.dashId, parseInput(GridColumnInput, req.body)),
    }));
    scope.put<R>(`${base}/:dashId/grid/:colId`, async (req) => ({
      column: await s.updateColumn(
        project(req),
        req.params.dashId,
        req.params.colId,
        parseInput(GridColumnInput, req.body),
      ),
    }));
    scope.get<R>(`${base}/:dashId/grid/:colId/yaml`, async (req, reply) =>
      reply
        .type('text/yaml; charset=utf-8')
        .send(await s.columnYaml(project(req), req.params.dashId, req.params.colId)),
    );
    scope.delete<R>(`${base}/:dashId/grid/:colId`, async (req) => ({
      column: await s.deleteColumn(project(req), req.params.dashId, req.params.colId),
    }));

    scope.get<R>(`${base}/:dashId/gauges`, async (req) => {
      const pid = project(req);
      const d = await s.requireDash(pid, req.params.dashId);
      const kind = req.query.dash_kind ? parseInput(DashKind, req.query.dash_kind) : undefined;
      return { gauges: await deps.store.gauges(pid, Number(d.id), kind) };
    });
    scope.post<R>(`${base}/:dashId/gauges`, async (req) => ({
      gauge: await s.addGauge(project(req), req.params.dashId, parseInput(GaugeInput, req.body)),
    }));
    scope.put<R>(`${base}/:dashId/gauges`, async (req) => ({
      gauges: await s.reorderGauges(project(req), req.params.dashId, parseInput(GaugeOrderBody, req.body)),
    }));
    scope.put<R>(`${base}/:dashId/gauges/:gaugeId`, async (req) => ({
      gauge: await s.updateGauge(project(req), req.params.dashId, req.params.gaugeId, parseInput(GaugeInput, req.body)),
    }));
    scope.delete<R>(`${base}/:dashId/gauges/:gaugeId`, async (req) => ({
      gauge: await s.deleteGauge(project(req), req.params.dashId, req.params.gaugeId),
    }));
  });
}
