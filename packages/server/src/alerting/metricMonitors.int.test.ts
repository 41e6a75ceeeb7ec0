import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelResponse, MonitorResponse, WebhookMessage, type Alert, type AlertListResponse, type MonitorMetric } from '@lantern/shared';
import { removeDataDir } from '../../../../e2e/harness';
import { startHttpReceiver, startSmtpReceiver, type HttpReceiver, type SmtpReceiver } from '../../../../e2e/receivers';
import { startAlertingServer, TEST_SITE, type AlertingTestServer } from './alertingTestServer';
import { MetricQueryError, type MetricQueryRunner, type MetricSeries, type MetricSeriesRequest } from './metricQueryRunner';

/**
 * Metric monitors through the real scheduler, stores, API and delivery. The metrics query engine is
 * built on another branch; until it is merged, this test answers the MetricQueryRunner interface
 * from a table of per-minute values the test writes (a stand-in for the engine only — everything
 * after the runner is the production path). Once the engine lands, a test that sends metrics over
 * OTLP should replace this table.
 */
class MinuteTable implements MetricQueryRunner {
  readonly rows = new Map<string, { attrs: Record<string, string>; byMinute: Map<number, number> }>();
  requests: MetricSeriesRequest[] = [];

  set(attrs: Record<string, string>, from: Date, minutes: number, value: number) {
    const key = JSON.stringify(attrs);
    const s = this.rows.get(key) ?? { attrs, byMinute: new Map() };
    for (let i = 0; i < minutes; i++) s.byMinute.set(from.getTime() + i * 60_000, value);
    this.rows.set(key, s);
  }

  async columns(req: { metrics: MonitorMetric[]; query: string }): Promise<string[]> {
    if (req.metrics.some((m) => m.name === 'no.such.metric')) throw new MetricQueryError('unknown_metric', 'metric no.such.metric does not exist');
    return req.query.split(',').map((c) => c.trim());
  }

  async series(req: MetricSeriesRequest): Promise<MetricSeries[]> {
    this.requests.push(req);
    if (req.metrics.some((m) => m.name === 'gone.metric')) throw new MetricQueryError('unknown_metric', 'metric gone.metric does not exist');
    const n = (req.to.getTime() - req.from.getTime()) / 60_000;
    return [...this.rows.values()].map((s) => ({
      attrs: s.attrs,
      values: Array.from({ length: n }, (_, i) => s.byMinute.get(req.from.getTime() + i * 60_000) ?? null),
    }));
  }
}

let receiver: HttpReceiver;
let smtp: SmtpReceiver;
let server: AlertingTestServer;
const table = new MinuteTable();
const T0 = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);
const clock = { now: T0 };
const at = (min: number) => new Date(T0.getTime() + min * 60_000);
const minute = (min: number) => new Date(Math.floor(at(min).getTime() / 60_000) * 60_000);

beforeAll(async () => {
  receiver = await startHttpReceiver();
  smtp = await startSmtpReceiver();
  server = await startAlertingServer({ smtpPort: smtp.port, clock, metrics: table });
});
afterAll(async () => {
  await server?.lantern.close();
  await receiver?.close();
  await smtp?.close();
  if (server) removeDataDir(server.dataDir);
});

const slackText = () => (receiver.on('/slack').at(-1)!.body as { blocks: { text: { text: string } }[] }).blocks[0].text.text;
const metricParams = (over: Record<string, unknown> = {}) => ({
  metrics: [{ name: 'system.cpu.utilization', alias: 'cpu' }],
  query: 'cpu',
  column: 'cpu',
  columnUnit: 'utilization',
  forDuration: 3,
  forDurationUnit: 'minutes',
  maxValue: 0.9,
  ...over,
});

describe('metric monitor validation with an engine', () => {
  it('requires exactly one column, the one saved, and known metrics', async () => {
    const two = await server.call<{ message: string }>('POST', '/monitors/metric', { name: 'x', params: metricParams({ query: 'cpu, mem' }) });
    expect(two).toMatchObject({ status: 400, body: { message: 'The query returns 2 columns, but only a single column is allowed.' } });
    const unknown = await server.call('POST', '/monitors/metric', { name: 'x', params: metricParams({ metrics: [{ name: 'no.such.metric', alias: 'cpu' }] }) });
    expect(unknown).toMatchObject({ status: 400, body: { code: 'unknown_metric', message: 'metric no.such.metric does not exist' } });
    const other = await server.call<{ message: string }>('POST', '/monitors/metric', { name: 'x', params: metricParams({ column: 'mem' }) });
    expect(other.status).toBe(400);
  });
});

describe('a metric monitor over two series', () => {
  let monitorId = '';
  let alert: Alert;

  it('fires for the series above max for forDuration, and notifies every channel', async () => {
    const hook = ChannelResponse.parse((await server.call('POST', '/notification-channels/webhook', { name: 'hook', params: { url: `${receiver.url}/webhook` } })).body).channel;
    const slack = ChannelResponse.parse((await server.call('POST', '/notification-channels/slack', { name: 'slack', params: { webhookUrl: `${receiver.url}/slack` } })).body).channel;
    const am = ChannelResponse.parse((await server.call('POST', '/notification-channels/webhook', { type: 'alertmanager', name: 'am', params: { url: `${receiver.url}/am` } })).body).channel;
    const created = await server.call('POST', '/monitors/metric', { name: 'CPU', notifyEveryoneByEmail: true, channelIds: [hook.id, slack.id, am.id], params: metricParams() });
    expect(created.status).toBe(200);
    monitorId = MonitorResponse.parse(created.body).monitor.id;

    // web1 is above 0.9 for 2 minutes only: not yet firing.
    table.set({ 'host.name': 'web1' }, minute(-10), 8, 0.5);
    table.set({ 'host.name': 'web1' }, minute(-2), 2, 0.95);
    table.set({ 'host.name': 'web2' }, minute(-10), 10, 0.5);
    await server.lantern.alerting.scheduler.tick();
    expect(table.requests.at(-1)).toMatchObject({ projectId: 1, column: 'cpu', to: minute(0) });
    expect(table.requests.at(-1)!.to.getTime() - table.requests.at(-1)!.from.getTime()).toBe(60 * 60_000);
    expect(receiver.requests).toHaveLength(0);
    expect(MonitorResponse.parse((await server.call('GET', `/monitors/${monitorId}`)).body).monitor.state).toBe('active');

    // One more minute above: 3 minutes = forDuration.
    table.set({ 'host.name': 'web1' }, minute(0), 1, 0.95);
    table.set({ 'host.name': 'web2' }, minute(0), 1, 0.5);
    clock.now = at(1);
    await server.lantern.alerting.scheduler.tick();

    const list = (await server.call<AlertListResponse>('GET', '/alerts')).body;
    expect(list.alerts).toHaveLength(1);
    alert = list.alerts[0];
    expect(alert).toMatchObject({
      name: 'CPU: cpu{host.name=web1}',
      type: 'metric',
      state: 'open',
      monitorId: Number(monitorId),
      attrs: { 'host.name': 'web1' },
      params: { firing: 1, outlier: 0.95, minutes: 3, bounds: { min: null, max: 0.9 }, monitor: { query: 'cpu | where host.name = "web1"', column: 'cpu', columnUnit: 'utilization' } },
      createdAt: minute(-2).toISOString(),
    });
    const msg = WebhookMessage.parse(receiver.on('/webhook')[0].body);
    expect(msg).toEqual({ id: msg.id, eventName: 'created', payload: null, createdAt: `${minute(-2).toISOString().slice(0, -1)}000000Z`, alert: { id: String(alert.id), url: `${TEST_SITE}/alerting/1/alerts/${alert.id}`, name: alert.name, type: 'metric', state: 'open', createdAt: `${alert.createdAt.slice(0, -1)}000000Z` } });
    expect(slackText()).toBe(':arrow_upper_right: *[Lantern] The metric is firing: 95% is greater than 90%*\nCPU: cpu{host.name=web1}');
    expect(receiver.on('/am')[0].body).toEqual([{ labels: { host_name: 'web1', alertname: alert.name, alerturl: `${TEST_SITE}/alerting/1/alerts/${alert.id}` }, annotations: { summary: '95% is greater than 90%' }, startsAt: alert.createdAt, generatorURL: `${TEST_SITE}/alerting/1/alerts/${alert.id}` }]);
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0].raw).toContain('Subject: [Lantern] CPU: cpu{host.name=web1}');
    expect(MonitorResponse.parse((await server.call('GET', `/monitors/${monitorId}`)).body).monitor).toMatchObject({ state: 'firing', alertOpenCount: 1 });
  });

  it('does not repeat while it keeps firing, and reopens an alert a user closed while still firing', async () => {
    table.set({ 'host.name': 'web1' }, minute(1), 1, 0.97);
    clock.now = at(2);
    await server.lantern.alerting.scheduler.tick();
    expect(receiver.on('/webhook')).toHaveLength(1);

    await server.call('PUT', '/alerts/closed', { alertIds: [alert.id] });
    table.set({ 'host.name': 'web1' }, minute(2), 1, 0.97);
    clock.now = at(3);
    await server.lantern.alerting.scheduler.tick();
    const hooks = receiver.on('/webhook').map((r) => WebhookMessage.parse(r.body));
    expect(hooks.map((h) => [h.eventName, h.alert.state])).toEqual([['created', 'open'], ['state-changed', 'closed'], ['state-changed', 'open']]);
    expect(slackText()).toBe(':arrow_upper_right: *[Lantern] The metric is still firing: 97% is greater than 90%*\nCPU: cpu{host.name=web1}');
    expect((await server.call<{ alert: Alert }>('GET', `/alerts/${alert.id}`)).body.alert.state).toBe('open');
  });

  it('closes itself once back in bounds for forDuration + 5 minutes', async () => {
    table.set({ 'host.name': 'web1' }, minute(3), 7, 0.4);
    table.set({ 'host.name': 'web2' }, minute(1), 10, 0.5);
    clock.now = at(10); // 7 clean minutes: one short of 3 + 5
    await server.lantern.alerting.scheduler.tick();
    expect((await server.call<{ alert: Alert }>('GET', `/alerts/${alert.id}`)).body.alert.state).toBe('open');

    table.set({ 'host.name': 'web1' }, minute(10), 1, 0.4);
    clock.now = at(11);
    await server.lantern.alerting.scheduler.tick();
    expect((await server.call<{ alert: Alert }>('GET', `/alerts/${alert.id}`)).body.alert.state).toBe('closed');
    expect(slackText()).toBe(':white_check_mark: *[Lantern] The metric is back to normal*\nCPU: cpu{host.name=web1}');
    expect(receiver.on('/am').at(-1)!.body).toEqual([expect.objectContaining({ endsAt: minute(11).toISOString() })]);
    expect(MonitorResponse.parse((await server.call('GET', `/monitors/${monitorId}`)).body).monitor.state).toBe('active');
  });
});

describe('forDuration in hours', () => {
  it('needs the whole hour out of bounds, and asks for a window that covers it', async () => {
    table.rows.clear();
    const created = await server.call('POST', '/monitors/metric', { name: 'Queue', params: metricParams({ metrics: [{ name: 'queue.depth', alias: 'cpu' }], forDuration: 1, forDurationUnit: 'hours', maxValue: 100, columnUnit: '' }) });
    const id = MonitorResponse.parse(created.body).monitor.id;
    table.set({ queue: 'jobs' }, minute(-47), 59, 500); // minutes -47..11
    clock.now = at(12);
    const before = (await server.call<AlertListResponse>('GET', `/alerts?q=monitor:${id}`)).body.alerts;
    await server.lantern.alerting.scheduler.tick();
    expect((await server.call<AlertListResponse>('GET', `/alerts?q=monitor:${id}`)).body.alerts).toHaveLength(before.length);
    const req = table.requests.at(-1)!;
    expect((req.to.getTime() - req.from.getTime()) / 60_000).toBe(66);

    table.set({ queue: 'jobs' }, minute(12), 1, 500);
    clock.now = at(13);
    await server.lantern.alerting.scheduler.tick();
    const alerts = (await server.call<AlertListResponse>('GET', `/alerts?q=monitor:${id}`)).body.alerts;
    expect(alerts).toHaveLength(1);
    expect(alerts[0].params).toMatchObject({ firing: 1, minutes: 60, outlier: 500 });
  });

  it('marks a monitor failed when its metric no longer exists', async () => {
    const created = await server.call('POST', '/monitors/metric', { name: 'Gone', params: metricParams({ metrics: [{ name: 'gone.metric', alias: 'cpu' }] }) });
    const id = MonitorResponse.parse(created.body).monitor.id;
    await server.lantern.alerting.scheduler.tick();
    expect(MonitorResponse.parse((await server.call('GET', `/monitors/${id}`)).body).monitor).toMatchObject({ state: 'failed', stateReason: 'metric gone.metric does not exist' });
  });
});
