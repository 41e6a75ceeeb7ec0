// Alerting: monitors, alerts with their lifecycle, notification channels and their delivery, and
// the one evaluator per deployment (a lease in the metadata store) that drives them. Reads
// telemetry only through the span index (error monitors) and a MetricQueryRunner (metric
// monitors); never writes telemetry.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { ProjectsService } from '../projects';
import type { MetadataDb } from '../storage/metadata';
import type { TelemetryStore } from '../storage/telemetry';
import { registerAlertingRoutes } from './alerting.routes';
import { createAlertsService } from './alerts.service';
import { createAlertsStore } from './alerts.store';
import { createChannelsService } from './channels.service';
import { createChannelsStore } from './channels.store';
import { alertingDb } from './db';
import { createDelivery } from './delivery/deliver';
import { createMailer } from './delivery/mailer';
import { createAddressGuard } from './delivery/ssrf';
import { createErrorSpans } from './errorSpans';
import type { MetricQueryRunner } from './metricQueryRunner';
import { createMonitorsService } from './monitors.service';
import { createMonitorsStore, type MonitorValues } from './monitors.store';
import { createScheduler, type LeaderJob } from './scheduler';

export type { LeaderJob } from './scheduler';

export {
  MetricQueryError,
  type MetricQueryRunner,
  type MetricSeries,
  type MetricSeriesRequest,
} from './metricQueryRunner';
export {
  alertingMigration,
  alertListMigration,
  alertMonitorLinksMigration,
  projectSeedsMigration,
} from './alerting.migration';

/** A new project's error monitor: every new and recurring error, e-mailed to everyone. */
export const DEFAULT_ERROR_MONITOR: MonitorValues = {
  name: 'Notify on all errors',
  notifyEveryoneByEmail: true,
  params: { notifyOnNewErrors: true, notifyOnRecurringErrors: true, matchers: [] },
  channelIds: [],
};

export interface AlertingOptions {
  config: Config;
  db: MetadataDb;
  telemetry: TelemetryStore;
  projects: ProjectsService;
  log: Logger;
  /** The metrics query engine; null until one is plugged in (metric monitors then report no data). */
  metrics?: MetricQueryRunner | null;
  /** The clock; tests inject one to run minutes in milliseconds. */
  now?: () => Date;
  /** How far error scans stay behind the engine's clock (evaluateErrors.ts); tests set 0. Default: the config's. */
  errorScanLagMs?: number;
  /** Other areas' one-node-at-a-time work, run behind the evaluator's lease (scheduler.ts). */
  leaderJobs?: readonly LeaderJob[];
}

export function createAlerting(opts: AlertingOptions) {
  const now = opts.now ?? (() => new Date());
  const db = alertingDb(opts.db);
  const monitors = createMonitorsStore(db);
  const channels = createChannelsStore(db);
  const alerts = createAlertsStore(db);
  const errorSpans = createErrorSpans(opts.telemetry);
  const guard = createAddressGuard(opts.config.notifications.allow_networks);
  const mailer = createMailer(opts.config.notifications.smtp);
  if (!mailer) opts.log.info('notifications.smtp is disabled in the config: alert e-mails are not sent');
  const runner = opts.metrics ?? null;
  const eventDeps = { monitors, channels, emailEnabled: mailer !== null, now };

  const scheduler = createScheduler({
    db,
    metricDeps: { ...eventDeps, db, alerts, runner, log: opts.log },
    errorDeps: {
      ...eventDeps,
      db,
      alerts,
      errorSpans,
      log: opts.log,
      scanLagMs: opts.errorScanLagMs ?? opts.config.alerting.error_scan_lag_seconds * 1000,
    },
    delivery: createDelivery({
      db,
      channels,
      guard,
      mailer,
      siteUrl: opts.config.site.url,
      projectName: (id) => opts.projects.get(id)?.name ?? String(id),
      spanAttrs: (projectId, traceId, spanId) => errorSpans.spanAttrs(projectId, traceId, spanId),
      log: opts.log,
    }),
    projectIds: () => opts.projects.list().map((p) => p.id),
    now,
    log: opts.log,
    evaluateEveryMs: opts.config.alerting.check_interval_seconds * 1000,
    leaseTtlMs: opts.config.alerting.lease_seconds * 1000,
    metricDelayMs: opts.config.alerting.metric_delay_seconds * 1000,
    leaderJobs: opts.leaderJobs,
  });

  return {
    /**
     * Gives each configured project seen for the first time the default error monitor (reference
     * alerting §1): errors are e-mailed to everyone until the team decides otherwise.
     */
    async seedProjects(): Promise<void> {
      for (const p of opts.projects.list())
        if (await monitors.seedDefault(p.id, 'error', DEFAULT_ERROR_MONITOR, now()))
          opts.log.info({ projectId: p.id }, `created the monitor "${DEFAULT_ERROR_MONITOR.name}"`);
    },
    register(app: FastifyInstance) {
      registerAlertingRoutes(app, {
        projects: opts.projects,
        monitors: createMonitorsService({ monitors, channels, runner, now }),
        alerts: createAlertsService({ ...eventDeps, db, alerts, errorSpans, now }),
        channels: createChannelsService({
          db,
          channels,
          guard,
          now,
          smtpEnabled: mailer !== null,
          mailer,
          siteUrl: opts.config.site.url,
          projectName: (id) => opts.projects.get(id)?.name ?? String(id),
        }),
      });
    },
    scheduler,
    async close() {
      await scheduler.stop();
      mailer?.close();
    },
  };
}

export type Alerting = ReturnType<typeof createAlerting>;
