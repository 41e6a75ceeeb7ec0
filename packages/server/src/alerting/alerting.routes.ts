import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireProject, type ProjectsService } from '../projects';
import type { AlertsService } from './alerts.service';
import type { ChannelsService } from './channels.service';
import type { MonitorsService } from './monitors.service';

/** Binds the alerting API (spec platform §7) to the services. No rules here. */
export function registerAlertingRoutes(
  app: FastifyInstance,
  deps: { projects: ProjectsService; monitors: MonitorsService; alerts: AlertsService; channels: ChannelsService },
): void {
  type P = { projectId: string; id: string };
  const project = (req: FastifyRequest) => requireProject(deps.projects, (req.params as P).projectId).id;
  const id = (req: FastifyRequest) => (req.params as P).id;
  const query = (req: FastifyRequest) => (req.query ?? {}) as Record<string, unknown>;
  const user = (req: FastifyRequest) => req.user!;
  const base = '/api/v1/projects/:projectId';

  // Monitors
  app.get(`${base}/monitors`, (req) => deps.monitors.list(project(req), query(req)));
  app.post(`${base}/monitors/metric`, (req) => deps.monitors.create(project(req), 'metric', req.body));
  app.post(`${base}/monitors/error`, (req) => deps.monitors.create(project(req), 'error', req.body));
  app.post(`${base}/monitors/metric/preview`, (req) => deps.monitors.preview(project(req), req.body));
  app.get(`${base}/monitors/:id`, (req) => deps.monitors.show(project(req), id(req)));
  app.put(`${base}/monitors/:id/metric`, (req) => deps.monitors.update(project(req), id(req), 'metric', req.body));
  app.put(`${base}/monitors/:id/error`, (req) => deps.monitors.update(project(req), id(req), 'error', req.body));
  app.put(`${base}/monitors/:id/active`, (req) => deps.monitors.setState(project(req), id(req), 'active'));
  app.put(`${base}/monitors/:id/paused`, (req) => deps.monitors.setState(project(req), id(req), 'paused'));
  app.delete(`${base}/monitors/:id`, (req) => deps.monitors.remove(project(req), id(req)));

  // Alerts
  app.get(`${base}/alerts`, (req) => deps.alerts.list(project(req), query(req)));
  app.get(`${base}/alerts/:id`, (req) => deps.alerts.show(project(req), id(req)));
  app.get(`${base}/alerts/:id/events`, (req) => deps.alerts.events(project(req), id(req)));
  app.put(`${base}/alerts/closed`, (req) => deps.alerts.close(project(req), req.body, user(req).id));
  app.put(`${base}/alerts/open`, (req) => deps.alerts.open(project(req), req.body, user(req).id));
  app.put(`${base}/alerts/close-all`, (req) => deps.alerts.closeAll(project(req), query(req), user(req).id));
  app.delete(`${base}/alerts`, (req) => deps.alerts.remove(project(req), req.body));

  // Notification channels
  const ch = `${base}/notification-channels`;
  app.get(ch, (req) => deps.channels.list(project(req)));
  app.get(`${ch}/email`, (req) => deps.channels.emailSettings(project(req), user(req)));
  app.put(`${ch}/email`, (req) => deps.channels.saveEmailSettings(project(req), user(req), req.body));
  app.post(`${ch}/email/test`, (req) => deps.channels.testEmail(project(req), user(req)));
  for (const kind of ['slack', 'webhook'] as const) {
    app.post(`${ch}/${kind}`, (req) => deps.channels.create(project(req), kind, req.body));
    app.get(`${ch}/${kind}/:id`, (req) => deps.channels.show(project(req), kind, id(req)));
    app.put(`${ch}/${kind}/:id`, (req) => deps.channels.update(project(req), kind, id(req), req.body));
  }
  app.post(`${ch}/:id/test`, (req) => deps.channels.test(project(req), id(req)));
  app.put(`${ch}/:id/paused`, (req) => deps.channels.setState(project(req), id(req), 'paused'));
  app.put(`${ch}/:id/unpaused`, (req) => deps.channels.setState(project(req), id(req), 'delivering'));
  app.delete(`${ch}/:id`, (req) => deps.channels.remove(project(req), id(req)));
}
