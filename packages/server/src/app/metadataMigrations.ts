import type { Migration } from 'kysely';
import { alertingMigration, alertListMigration, alertMonitorLinksMigration, projectSeedsMigration } from '../alerting';
import { authSessionsMigration, usersMigration } from '../auth';
import {
  dashboardsMigration,
  dashboardTagsMigration,
  dashboardVariablesMigration,
  dismissedTemplatesMigration,
  gaugeLookMigration,
} from '../dashboards';
import { tracingMigration } from '../tracing';

/**
 * The metadata migrations of every domain, applied in name order (storage/metadata's
 * migrateMetadataDb). A new one takes the next number; applied ones never change.
 */
export const METADATA_MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_users': usersMigration,
  '0002_tracing': tracingMigration,
  '0003_metrics': dashboardsMigration,
  '0004_alerting': alertingMigration,
  '0005_dismissed_templates': dismissedTemplatesMigration,
  '0006_alert_list': alertListMigration,
  '0007_auth_sessions': authSessionsMigration,
  '0008_project_seeds': projectSeedsMigration,
  '0009_alert_monitor_links': alertMonitorLinksMigration,
  '0010_dashboard_variables': dashboardVariablesMigration,
  '0011_dashboard_tags': dashboardTagsMigration,
  '0012_gauge_look': gaugeLookMigration,
};
