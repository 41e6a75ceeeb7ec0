import { alertingRoutes as r } from '@lantern/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerRoute, type RouteInput } from '../http/routes';
import { requireProject, type ProjectsService } from '../projects';
import type { AlertsService } from './alerts.service';
import type { ChannelsService } from './channels.service';
import type { MonitorsService } from './monitors.service';

/**
 * Binds the alerting API (alertingRoutes; spec platform §7) to the services. No rules here. The
 * services parse their input with the contracts' schemas themselves (they add rules the schemas
 * cannot say), so handlers pass the raw query and body on.
 */
export function registerAlertingRoutes(
  app: FastifyInstance,
  deps: { projects: ProjectsService; monitors: MonitorsService; alerts: AlertsService; channels: ChannelsService },
): void {
  type In = Pick<RouteInput<typeof r.monitor>, 'params'>;
  const project = (input: { params: { projectId: string } }) =>
    requireProject(deps.projects, input.params.projectId).id;
  const id = (input: In) => input.params.id;
  const user = (req: FastifyRequest) => req.user!;
  const { monitors, alerts, channels } = deps;

  // Monitors
  registerRoute(app, r.monitors, async (i) => monitors.list(project(i), i.rawQuery));
  registerRoute(app, r.createMetricMonitor, async (i) => monitors.create(project(i), 'metric', i.rawBody));
  registerRoute(app, r.createErrorMonitor, async (i) => monitors.create(project(i), 'error', i.rawBody));
  registerRoute(app, r.previewMetricMonitor, async (i) => monitors.preview(project(i), i.rawBody));
  registerRoute(app, r.monitor, async (i) => monitors.show(project(i), id(i)));
  registerRoute(app, r.updateMetricMonitor, async (i) => monitors.update(project(i), id(i), 'metric', i.rawBody));
  registerRoute(app, r.updateErrorMonitor, async (i) => monitors.update(project(i), id(i), 'error', i.rawBody));
  registerRoute(app, r.activateMonitor, async (i) => monitors.setState(project(i), id(i), 'active'));
  registerRoute(app, r.pauseMonitor, async (i) => monitors.setState(project(i), id(i), 'paused'));
  registerRoute(app, r.deleteMonitor, async (i) => monitors.remove(project(i), id(i)));

  // Alerts
  registerRoute(app, r.alerts, async (i) => alerts.list(project(i), i.rawQuery));
  registerRoute(app, r.alert, async (i) => alerts.show(project(i), id(i)));
  registerRoute(app, r.alertEvents, async (i) => alerts.events(project(i), id(i)));
  registerRoute(app, r.closeAlerts, async (i, req) => alerts.close(project(i), i.rawBody, user(req).id));
  registerRoute(app, r.openAlerts, async (i, req) => alerts.open(project(i), i.rawBody, user(req).id));
  registerRoute(app, r.closeAllAlerts, async (i, req) => alerts.closeAll(project(i), i.rawQuery, user(req).id));
  registerRoute(app, r.deleteAlerts, async (i) => alerts.remove(project(i), i.rawBody));

  // Notification channels
  registerRoute(app, r.channels, async (i) => channels.list(project(i)));
  registerRoute(app, r.emailChannel, async (i, req) => channels.emailSettings(project(i), user(req)));
  registerRoute(app, r.updateEmailChannel, async (i, req) =>
    channels.saveEmailSettings(project(i), user(req), i.rawBody),
  );
  registerRoute(app, r.testEmailChannel, async (i, req) => channels.testEmail(project(i), user(req)));
  for (const [kind, create, show, update] of [
    ['slack', r.createSlackChannel, r.slackChannel, r.updateSlackChannel],
    ['webhook', r.createWebhookChannel, r.webhookChannel, r.updateWebhookChannel],
  ] as const) {
    registerRoute(app, create, async (i) => channels.create(project(i), kind, i.rawBody));
    registerRoute(app, show, async (i) => channels.show(project(i), kind, id(i)));
    registerRoute(app, update, async (i) => channels.update(project(i), kind, id(i), i.rawBody));
  }
  registerRoute(app, r.testChannel, async (i) => channels.test(project(i), id(i)));
  registerRoute(app, r.pauseChannel, async (i) => channels.setState(project(i), id(i), 'paused'));
  registerRoute(app, r.unpauseChannel, async (i) => channels.setState(project(i), id(i), 'delivering'));
  registerRoute(app, r.deleteChannel, async (i) => channels.remove(project(i), id(i)));
}
