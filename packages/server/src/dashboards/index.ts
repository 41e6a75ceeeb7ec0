// Dashboards: grid and table dashboards with their items and gauges, YAML import/export, and the
// built-in templates installed when their metrics appear. Stores metadata only; querying metrics
// is the metrics area's job.
export { createDashboardsStore, type DashboardsStore } from './dashboards.store';
export { createDashboardsService, type DashboardsService } from './dashboards.service';
export { registerDashboardRoutes } from './dashboards.routes';
export { createTemplateInstaller, loadTemplates, type TemplateInstaller } from './templates';
export { setupDashboards } from './setupDashboards';
export {
  dashboardsMigration,
  dashboardTagsMigration,
  dashboardVariablesMigration,
  dismissedTemplatesMigration,
  gaugeLookMigration,
} from './dashboards.migration';
