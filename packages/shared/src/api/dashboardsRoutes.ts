import { z } from 'zod';
import { EmptyResponse, route } from './contract';
import {
  CreateDashboardBody,
  Dashboard,
  DashboardTemplate,
  DashKind,
  GaugeInput,
  GaugeOrderBody,
  GridColumnInput,
  GridLayoutBody,
  UpdateDashboardBody,
  UpdateDashboardTableBody,
} from './dashboards';

/** What every stored grid column and gauge carries beside its input. */
const stored = {
  id: z.string(),
  projectId: z.number().int(),
  dashId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
};
export const GridColumnSchema = GridColumnInput.and(z.object(stored));
export const GaugeSchema = GaugeInput.extend(stored);

export const DashboardListResponse = z.object({ dashboards: z.array(Dashboard) });
export const DashboardResponseSchema = z.object({ dashboard: Dashboard });
export const DashboardShowResponseSchema = z.object({
  dashboard: Dashboard,
  grid: z.array(GridColumnSchema),
  /** Where the dashboard's YAML export is downloaded. */
  yamlUrl: z.string(),
});
export const GridResponse = z.object({ grid: z.array(GridColumnSchema) });
export const GridColumnResponse = z.object({ column: GridColumnSchema });
export const GaugesResponse = z.object({ gauges: z.array(GaugeSchema) });
export const GaugeResponse_ = z.object({ gauge: GaugeSchema });

const tags = ['dashboards'];
const base = '/api/v1/metrics/:projectId/dashboards';
/** A dashboard of another project (a grid item or gauge of another dashboard) is 403 `forbidden`; one that does not exist, 404. */
const dashMissing = { 403: ['forbidden'], 404: ['project_not_found', 'dashboard_not_found'] } as const;
const yamlBody = {
  media: ['text/yaml', 'application/yaml', 'application/x-yaml'],
  description: 'A dashboard exported as YAML (the format of GET .../dashboards/{dashId}/yaml)',
} as const;
const p = <S extends string>(suffix: S): `${typeof base}${S}` => `${base}${suffix}`;

/** `/api/v1/metrics/{projectId}/dashboards/...` (spec tracing-and-metrics §Dashboards). Ids are strings. */
export const dashboardsRoutes = {
  dashboards: route({
    id: 'dashboards',
    method: 'GET',
    path: base,
    response: DashboardListResponse,
    errors: { 404: ['project_not_found'] },
    summary: "The project's dashboards",
    tags,
  }),
  createDashboard: route({
    id: 'createDashboard',
    method: 'POST',
    path: base,
    body: CreateDashboardBody,
    response: DashboardResponseSchema,
    errors: { 400: ['too_many_dashboards'], 404: ['project_not_found'] },
    summary: 'Create an empty dashboard',
    tags,
  }),
  createDashboardFromYaml: route({
    id: 'createDashboardFromYaml',
    method: 'POST',
    path: p('/yaml'),
    rawBody: yamlBody,
    response: DashboardResponseSchema,
    errors: { 400: ['too_many_dashboards'], 404: ['project_not_found'] },
    summary: 'Create a dashboard from a YAML file',
    tags,
  }),
  dashboardTemplates: route({
    id: 'dashboardTemplates',
    method: 'GET',
    path: p('/templates'),
    response: z.object({ templates: z.array(DashboardTemplate) }),
    errors: { 404: ['project_not_found'] },
    summary: 'The built-in dashboard templates (the gallery behind New dashboard)',
    tags,
  }),
  createDashboardFromTemplate: route({
    id: 'createDashboardFromTemplate',
    method: 'POST',
    path: p('/templates/:templateId'),
    response: DashboardResponseSchema,
    errors: { 400: ['too_many_dashboards'], 404: ['project_not_found', 'template_not_found'] },
    summary: 'Create a dashboard from a built-in template (all its panels, whether or not their metrics exist yet)',
    tags,
  }),
  dashboard: route({
    id: 'dashboard',
    method: 'GET',
    path: p('/:dashId'),
    response: DashboardShowResponseSchema,
    errors: dashMissing,
    summary: 'A dashboard with its grid columns',
    tags,
  }),
  cloneDashboard: route({
    id: 'cloneDashboard',
    method: 'POST',
    path: p('/:dashId'),
    response: DashboardResponseSchema,
    errors: { 400: ['too_many_dashboards'], ...dashMissing },
    summary: 'Clone a dashboard (with its columns and gauges)',
    tags,
  }),
  updateDashboard: route({
    id: 'updateDashboard',
    method: 'PUT',
    path: p('/:dashId'),
    body: UpdateDashboardBody,
    response: DashboardResponseSchema,
    errors: dashMissing,
    summary: "Rename a dashboard or change its grid's query",
    tags,
  }),
  updateDashboardTable: route({
    id: 'updateDashboardTable',
    method: 'PUT',
    path: p('/:dashId/table'),
    body: UpdateDashboardTableBody,
    response: DashboardResponseSchema,
    errors: dashMissing,
    summary: "Change a dashboard's table (metrics, query, column units)",
    tags,
  }),
  deleteDashboard: route({
    id: 'deleteDashboard',
    method: 'DELETE',
    path: p('/:dashId'),
    response: DashboardResponseSchema,
    errors: dashMissing,
    summary: 'Delete a dashboard (a template dashboard is not created again)',
    tags,
  }),
  pinDashboard: route({
    id: 'pinDashboard',
    method: 'PUT',
    path: p('/:dashId/pinned'),
    response: EmptyResponse,
    errors: dashMissing,
    summary: 'Pin a dashboard',
    tags,
  }),
  unpinDashboard: route({
    id: 'unpinDashboard',
    method: 'PUT',
    path: p('/:dashId/unpinned'),
    response: EmptyResponse,
    errors: dashMissing,
    summary: 'Unpin a dashboard',
    tags,
  }),
  dashboardYaml: route({
    id: 'dashboardYaml',
    method: 'GET',
    path: p('/:dashId/yaml'),
    response: z.string(),
    rawResponse: { media: ['text/yaml'], description: 'The dashboard as a YAML file (an attachment)' },
    errors: dashMissing,
    summary: 'Export a dashboard as YAML',
    tags,
  }),
  importDashboardYaml: route({
    id: 'importDashboardYaml',
    method: 'PUT',
    path: p('/:dashId/yaml'),
    rawBody: yamlBody,
    response: DashboardResponseSchema,
    errors: dashMissing,
    summary: "Replace a dashboard's content with a YAML file",
    tags,
  }),
  layoutGrid: route({
    id: 'layoutGrid',
    method: 'PUT',
    path: p('/:dashId/grid'),
    body: GridLayoutBody,
    response: GridResponse,
    errors: { ...dashMissing, 404: [...dashMissing[404], 'grid_column_not_found'] },
    summary: 'Move and resize grid columns',
    tags,
  }),
  addGridColumn: route({
    id: 'addGridColumn',
    method: 'POST',
    path: p('/:dashId/grid'),
    body: GridColumnInput,
    response: GridColumnResponse,
    errors: dashMissing,
    summary: 'Add a chart, table or heatmap to the grid',
    tags,
  }),
  updateGridColumn: route({
    id: 'updateGridColumn',
    method: 'PUT',
    path: p('/:dashId/grid/:colId'),
    body: GridColumnInput,
    response: GridColumnResponse,
    errors: { ...dashMissing, 404: [...dashMissing[404], 'grid_column_not_found'] },
    summary: 'Change a grid column',
    tags,
  }),
  gridColumnYaml: route({
    id: 'gridColumnYaml',
    method: 'GET',
    path: p('/:dashId/grid/:colId/yaml'),
    response: z.string(),
    rawResponse: { media: ['text/yaml'], description: 'One grid column as YAML' },
    errors: { ...dashMissing, 404: [...dashMissing[404], 'grid_column_not_found'] },
    summary: 'Export one grid column as YAML',
    tags,
  }),
  deleteGridColumn: route({
    id: 'deleteGridColumn',
    method: 'DELETE',
    path: p('/:dashId/grid/:colId'),
    response: GridColumnResponse,
    errors: { ...dashMissing, 404: [...dashMissing[404], 'grid_column_not_found'] },
    summary: 'Remove a grid column',
    tags,
  }),
  gauges: route({
    id: 'gauges',
    method: 'GET',
    path: p('/:dashId/gauges'),
    query: z.object({ dash_kind: z.union([DashKind, z.literal('')]).optional() }),
    response: GaugesResponse,
    errors: dashMissing,
    summary: "A dashboard's gauges (of its grid or its table)",
    tags,
  }),
  addGauge: route({
    id: 'addGauge',
    method: 'POST',
    path: p('/:dashId/gauges'),
    body: GaugeInput,
    response: GaugeResponse_,
    errors: dashMissing,
    summary: 'Add a gauge',
    tags,
  }),
  reorderGauges: route({
    id: 'reorderGauges',
    method: 'PUT',
    path: p('/:dashId/gauges'),
    body: GaugeOrderBody,
    response: GaugesResponse,
    errors: { ...dashMissing, 404: [...dashMissing[404], 'gauge_not_found'] },
    summary: 'Reorder gauges',
    tags,
  }),
  updateGauge: route({
    id: 'updateGauge',
    method: 'PUT',
    path: p('/:dashId/gauges/:gaugeId'),
    body: GaugeInput,
    response: GaugeResponse_,
    errors: { ...dashMissing, 404: [...dashMissing[404], 'gauge_not_found'] },
    summary: 'Change a gauge',
    tags,
  }),
  deleteGauge: route({
    id: 'deleteGauge',
    method: 'DELETE',
    path: p('/:dashId/gauges/:gaugeId'),
    response: GaugeResponse_,
    errors: { ...dashMissing, 404: [...dashMissing[404], 'gauge_not_found'] },
    summary: 'Remove a gauge',
    tags,
  }),
};
