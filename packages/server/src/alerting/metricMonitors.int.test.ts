import { ExportResultCode, millisToHrTime, type ExportResult } from '@opentelemetry/core';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, MetricReader, type MetricData, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AlertEventsResponse,
  ChannelResponse,
  MonitorResponse,
  WebhookMessage,
  type Alert,
  type AlertListResponse,
} from '@lantern/shared';
import { PROJECT1_TOKEN, removeDataDir } from '@lantern/testkit/harness';
import { startHttpReceiver, startSmtpReceiver, type HttpReceiver, type SmtpReceiver } from '@lantern/testkit/receivers';
import { startAlertingServer, TEST_SITE, type AlertingTestServer } from './alertingTestServer';

/**
 * Metric monitors end to end: gauges recorded with the OpenTelemetry JS metrics SDK go through the
 * real OTLP/HTTP protobuf endpoint into chDB, and the built-in metrics query engine answers the
 * monitors that the real scheduler (ticked by the test on an injected clock), stores, API and
 * delivery act on. The test's timeline lies 30 minutes in the past, so every minute it writes is
 * already over when the monitors look at it.
 */
let receiver: HttpReceiver;
let smtp: SmtpReceiver;
let server: AlertingTestServer;
const T0 = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 30 * 60_000 + 30_000);
const clock = { now: T0 };
const at = (min: number) => new Date(T0.getTime() + min * 60_000);
const minute = (min: number) => new Date(Math.floor(at(min).getTime() / 60_000) * 60_000);

/** Collects on demand only: the test stamps each collection with the minute it stands for. */
class OnDemandReader extends MetricReader {
  protected async onForceFlush() {}
  protected async onShutdown() {}
}

/**
 * Sends one gauge of one host (the `host.name` resource attribute, as host metrics carry it):
 * `values[i]` is recorded for minute `fromMin + i` (null: nothing that minute). The SDK stamps a
 * collection with the current time, so each minute's datapoints are re-stamped with that minute
 * before the real OTLP exporter sends them all in one request.
 */
async function sendGauge(name: string, resource: Record<string, string>, fromMin: number, values: (number | null)[]) {
  const reader = new OnDemandReader();
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ 'service.name': 'alert-tests', ...resource }),
    readers: [reader],
  });
  const gauge = provider.getMeter('alert-tests').createGauge(name, { unit: '1' });
  let batch: ResourceMetrics | undefined;
  let metric: MetricData | undefined;
  for (const [i, v] of values.entries()) {
    if (v === null) continue;
    gauge.record(v);
    const { resourceMetrics } = await reader.collect();
    const time = millisToHrTime(minute(fromMin + i).getTime() + 10_000);
    const collected = resourceMetrics.scopeMetrics[0].metrics[0];
    for (const dp of collected.dataPoints) Object.assign(dp, { startTime: time, endTime: time });
    if (!batch || !metric) [batch, metric] = [resourceMetrics, collected];
    else (metric.dataPoints as unknown[]).push(...collected.dataPoints);
  }
  await provider.shutdown();
  if (!batch) return;
  const exporter = new OTLPMetricExporter({
    url: `${server.baseUrl}/v1/metrics`,
    headers: { 'lantern-dsn': `http://${PROJECT1_TOKEN}@127.0.0.1/1` },
  });
  const result = await new Promise<ExportResult>((resolve) => exporter.export(batch, resolve));
  await exporter.shutdown();
  expect(result.code, String(result.error)).toBe(ExportResultCode.SUCCESS);
}

const constant = (n: number, v: number) => Array.from({ length: n }, () => v);
const CPU = 'system.cpu.utilization';

beforeAll(async () => {
  receiver = await startHttpReceiver();
  smtp = await startSmtpReceiver();
  server = await startAlertingServer({ smtpPort: smtp.port, clock, metrics: 'built-in' });
  // Minutes -10..-1: web1 is at 0.5 then above 0.9 for its last two minutes; web2 stays at 0.5.
  await sendGauge(CPU, { 'host.name': 'web1' }, -10, [...constant(8, 0.5), 0.95, 0.95]);
  await sendGauge(CPU, { 'host.name': 'web2' }, -10, constant(10, 0.5));
});
afterAll(async () => {
  await server?.lantern.close();
  await receiver?.close();
  await smtp?.close();
  if (server) removeDataDir(server.dataDir);
});

const slackText = () =>
  (receiver.on('/slack').at(-1)!.body as { blocks: { text: { text: string } }[] }).blocks[0].text.text;
const QUERY = 'avg($cpu) as cpu | group by host.name';
const metricParams = (over: Record<string, unknown> = {}) => ({
  metrics: [{ name: CPU, alias: 'cpu' }],
  query: QUERY,
  column: 'cpu',
  columnUnit: 'utilization',
  forDuration: 3,
  forDurationUnit: 'minutes',
  maxValue: 0.9,
  ...over,
});
const monitorOf = async (id: string) =>
  MonitorResponse.parse((await server.call('GET', `/monitors/${id}`)).body).monitor;

describe('metric monitor preview (the evaluator replayed over a range)', () => {
  const range = { time_gte: at(-20).toISOString(), time_lt: at(1).toISOString() };
  it('tells how often a monitor would have fired, and when first', async () => {
    // web1 is above 0.9 for its last two minutes: a 1-minute monitor fires once, a 3-minute one never.
    const one = await server.call('POST', '/monitors/metric/preview', {
      params: metricParams({ forDuration: 1 }),
      ...range,
    });
    expect(one).toMatchObject({ status: 200, body: { fired: 1, series: 2, firstAt: minute(-1).toISOString() } });
    const three = await server.call('POST', '/monitors/metric/preview', { params: metricParams(), ...range });
    expect(three).toMatchObject({ status: 200, body: { fired: 0, firstAt: null } });
  });

  it('refuses bad input with the same messages as saving', async () => {
    const bad = await server.call('POST', '/monitors/metric/preview', {
      params: metricParams({ maxValue: null }),
      ...range,
    });
    expect(bad).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('At least min value is required') },
    });
    const unknown = await server.call('POST', '/monitors/metric/preview', {
      params: metricParams({ metrics: [{ name: 'no.such', alias: 'cpu' }] }),
      ...range,
    });
    expect(unknown).toMatchObject({ status: 400, body: { code: 'unknown_metric' } });
  });
});

describe('metric monitor validation against the engine', () => {
  it.each([
    [
      'two columns',
      { query: 'avg($cpu) as cpu | max($cpu) as peak' },
      'invalid_query',
      'The query returns 2 columns, but only a single column is allowed.',
    ],
    [
      'no visible column',
      { query: 'avg($cpu) as _hidden' },
      'invalid_query',
      'The query must return at least one column to monitor.',
    ],
    [
      'an unknown metric',
      { metrics: [{ name: 'no.such.metric', alias: 'cpu' }] },
      'unknown_metric',
      'metric no.such.metric does not exist',
    ],
    [
      'an unknown metric the query does not use',
      {
        metrics: [
          { name: CPU, alias: 'cpu' },
          { name: 'no.such.metric', alias: 'other' },
        ],
      },
      'unknown_metric',
      'metric no.such.metric does not exist',
    ],
    [
      'another column than the query yields',
      { column: 'load' },
      'invalid_query',
      'column "load" is not what the query returns ("cpu")',
    ],
    ['a query that does not parse', { query: 'avg($cpu' }, 'invalid_query', expect.any(String)],
    [
      'more filter terms than a series may carry',
      { query: `avg($cpu) as cpu | where ${Array.from({ length: 101 }, (_, i) => `host != h${i}`).join(' and ')}` },
      'invalid_query',
      'too many filters: 101 (at most 100)',
    ],
    [
      'an alias the metrics do not declare',
      { query: 'avg($mem) as cpu' },
      'invalid_query',
      expect.stringContaining('$mem'),
    ],
  ])('refuses %s', async (_name, over, code, message) => {
    const r = await server.call('POST', '/monitors/metric', { name: 'x', params: metricParams(over) });
    expect(r).toMatchObject({ status: 400, body: { code, message } });
  });

  it('accepts the query and column the engine yields', async () => {
    const r = await server.call('POST', '/monitors/metric', { name: 'valid', params: metricParams() });
    expect(r.status).toBe(200);
    await server.call('DELETE', `/monitors/${MonitorResponse.parse(r.body).monitor.id}`);
  });
});

describe('a metric monitor over two hosts', () => {
  let monitorId = '';
  let alert: Alert;

  it('fires for the host above max for forDuration, and notifies every channel', async () => {
    const hook = ChannelResponse.parse(
      (
        await server.call('POST', '/notification-channels/webhook', {
          name: 'hook',
          params: { url: `${receiver.url}/webhook` },
        })
      ).body,
    ).channel;
    const slack = ChannelResponse.parse(
      (
        await server.call('POST', '/notification-channels/slack', {
          name: 'slack',
          params: { webhookUrl: `${receiver.url}/slack` },
        })
      ).body,
    ).channel;
    const am = ChannelResponse.parse(
      (
        await server.call('POST', '/notification-channels/webhook', {
          type: 'alertmanager',
          name: 'am',
          params: { url: `${receiver.url}/am` },
        })
      ).body,
    ).channel;
    const created = await server.call('POST', '/monitors/metric', {
      name: 'CPU',
      notifyEveryoneByEmail: true,
      channelIds: [hook.id, slack.id, am.id],
      params: metricParams(),
    });
    expect(created.status).toBe(200);
    monitorId = MonitorResponse.parse(created.body).monitor.id;

    // web1 has been above 0.9 for 2 minutes only: not yet firing.
    await server.lantern.alerting.scheduler.tick();
    expect(receiver.requests).toHaveLength(0);
    expect(await monitorOf(monitorId)).toMatchObject({ state: 'active', stateReason: '' });

    // One more minute above: 3 minutes = forDuration.
    await sendGauge(CPU, { 'host.name': 'web1' }, 0, [0.95]);
    await sendGauge(CPU, { 'host.name': 'web2' }, 0, [0.5]);
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
      params: {
        firing: 1,
        outlier: 0.95,
        minutes: 3,
        bounds: { min: null, max: 0.9 },
        monitor: { query: `${QUERY} | where host.name = "web1"`, column: 'cpu', columnUnit: 'utilization' },
      },
      createdAt: minute(-2).toISOString(),
    });
    const msg = WebhookMessage.parse(receiver.on('/webhook')[0].body);
    expect(msg).toEqual({
      id: msg.id,
      eventName: 'created',
      payload: null,
      createdAt: `${minute(-2).toISOString().slice(0, -1)}000000Z`,
      alert: {
        id: String(alert.id),
        url: `${TEST_SITE}/alerting/1/alerts/${alert.id}`,
        name: alert.name,
        type: 'metric',
        state: 'open',
        createdAt: `${alert.createdAt.slice(0, -1)}000000Z`,
      },
    });
    expect(slackText()).toBe(
      ':arrow_upper_right: *[Lantern] The metric is firing: 95% is greater than 90%*\nCPU: cpu{host.name=web1}',
    );
    expect(receiver.on('/am')[0].body).toEqual([
      {
        labels: { host_name: 'web1', alertname: alert.name, alerturl: `${TEST_SITE}/alerting/1/alerts/${alert.id}` },
        annotations: { summary: '95% is greater than 90%' },
        startsAt: alert.createdAt,
        generatorURL: `${TEST_SITE}/alerting/1/alerts/${alert.id}`,
      },
    ]);
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0].raw).toContain('Subject: [Lantern] CPU: cpu{host.name=web1}');
    expect(await monitorOf(monitorId)).toMatchObject({ state: 'firing', alertOpenCount: 1 });
  });

  it('does not repeat while it keeps firing, and reopens an alert a user closed while still firing', async () => {
    await sendGauge(CPU, { 'host.name': 'web1' }, 1, [0.97]);
    clock.now = at(2);
    await server.lantern.alerting.scheduler.tick();
    expect(receiver.on('/webhook')).toHaveLength(1);

    // Closed 10 s into minute 3; the evaluator looks at minute 3 when it is over (a moment later)
    // and reopens it then: after the close, in the history and in the webhook's createdAt.
    clock.now = new Date(minute(3).getTime() + 10_000);
    await server.call('PUT', '/alerts/closed', { alertIds: [alert.id] });
    await sendGauge(CPU, { 'host.name': 'web1' }, 2, [0.97]);
    clock.now = at(3);
    await server.lantern.alerting.scheduler.tick();
    const hooks = receiver.on('/webhook').map((r) => WebhookMessage.parse(r.body));
    expect(hooks.map((h) => [h.eventName, h.alert.state])).toEqual([
      ['created', 'open'],
      ['state-changed', 'closed'],
      ['state-changed', 'open'],
    ]);
    expect(hooks.map((h) => h.createdAt)).toEqual([
      `${minute(-2).toISOString().slice(0, -1)}000000Z`,
      `${new Date(minute(3).getTime() + 10_000).toISOString().slice(0, -1)}000000Z`,
      `${at(3).toISOString().slice(0, -1)}000000Z`,
    ]);
    expect(slackText()).toBe(
      ':arrow_upper_right: *[Lantern] The metric is still firing: 97% is greater than 90%*\nCPU: cpu{host.name=web1}',
    );
    expect((await server.call<{ alert: Alert }>('GET', `/alerts/${alert.id}`)).body.alert.state).toBe('open');
    // The history tells the user who closed it that the evaluator reopened it (it said "Still firing").
    const { events } = AlertEventsResponse.parse((await server.call('GET', `/alerts/${alert.id}/events`)).body);
    expect(events.map((e) => [e.name, e.user?.name ?? null, e.createdAt])).toEqual([
      ['state-changed', null, at(3).toISOString()],
      ['state-changed', 'Admin', new Date(minute(3).getTime() + 10_000).toISOString()],
      ['created', null, minute(-2).toISOString()],
    ]);
    expect(events[0].params).toMatchObject({ reopened: true, firing: 1, outlier: 0.97, bounds: { max: 0.9 } });
    expect(events[2].params).not.toHaveProperty('reopened');
    expect((await server.call<{ alert: Alert }>('GET', `/alerts/${alert.id}`)).body.alert.params).not.toHaveProperty(
      'reopened',
    );
  });

  it('closes itself once back in bounds for forDuration + 5 minutes', async () => {
    await sendGauge(CPU, { 'host.name': 'web1' }, 3, constant(7, 0.4));
    await sendGauge(CPU, { 'host.name': 'web2' }, 1, constant(10, 0.5));
    clock.now = at(10); // 7 clean minutes: one short of 3 + 5
    await server.lantern.alerting.scheduler.tick();
    expect((await server.call<{ alert: Alert }>('GET', `/alerts/${alert.id}`)).body.alert.state).toBe('open');

    await sendGauge(CPU, { 'host.name': 'web1' }, 10, [0.4]);
    clock.now = at(11);
    await server.lantern.alerting.scheduler.tick();
    expect((await server.call<{ alert: Alert }>('GET', `/alerts/${alert.id}`)).body.alert.state).toBe('closed');
    expect(WebhookMessage.parse(receiver.on('/webhook').at(-1)!.body)).toMatchObject({
      eventName: 'state-changed',
      alert: { id: String(alert.id), state: 'closed' },
    });
    expect(slackText()).toBe(':white_check_mark: *[Lantern] The metric is back to normal*\nCPU: cpu{host.name=web1}');
    // Ended when the evaluator closed it (at(11)), after anything a user did to it before.
    expect(receiver.on('/am').at(-1)!.body).toEqual([expect.objectContaining({ endsAt: at(11).toISOString() })]);
    expect(await monitorOf(monitorId)).toMatchObject({ state: 'active', alertOpenCount: 0 });
    expect(
      (await server.call<AlertListResponse>('GET', `/alerts?q=monitor:${monitorId}&state=all`)).body.alerts,
    ).toHaveLength(1);
  });
});

describe('forDuration in hours, below min', () => {
  it('needs the whole hour below min before it fires', async () => {
    const body = {
      name: 'Queue',
      params: metricParams({
        metrics: [{ name: 'queue.consumers', alias: 'q' }],
        query: 'avg($q) as consumers | group by queue',
        column: 'consumers',
        forDuration: 1,
        forDurationUnit: 'hours',
        minValue: 1,
        maxValue: null,
        columnUnit: '',
      }),
    };
    const created = await server.call('POST', '/monitors/metric', body);
    // Saving needs the metric in the catalogue: send one older minute first.
    expect(created).toMatchObject({
      status: 400,
      body: { code: 'unknown_metric', message: 'metric queue.consumers does not exist' },
    });
    await sendGauge('queue.consumers', { queue: 'jobs' }, -48, [2]);
    const saved = await server.call('POST', '/monitors/metric', body);
    expect(saved.status).toBe(200);
    const id = MonitorResponse.parse(saved.body).monitor.id;
    const alertsOf = async () => (await server.call<AlertListResponse>('GET', `/alerts?q=monitor:${id}`)).body.alerts;

    await sendGauge('queue.consumers', { queue: 'jobs' }, -47, constant(59, 0)); // minutes -47..11
    clock.now = at(12);
    await server.lantern.alerting.scheduler.tick();
    expect(await alertsOf()).toHaveLength(0);

    await sendGauge('queue.consumers', { queue: 'jobs' }, 12, [0]);
    clock.now = at(13);
    await server.lantern.alerting.scheduler.tick();
    const alerts = await alertsOf();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      name: 'Queue: consumers{queue=jobs}',
      attrs: { queue: 'jobs' },
      params: { firing: -1, minutes: 60, outlier: 0, bounds: { min: 1, max: null } },
      createdAt: minute(-47).toISOString(),
    });
  });
});

describe('when data stops', () => {
  it('closes the alert of a host that stopped reporting, and the monitor turns no-data', async () => {
    const cpu = (
      await server.call<{ monitors: { id: string; name: string }[] }>('GET', '/monitors')
    ).body.monitors.find((m) => m.name === 'CPU')!;
    await sendGauge(CPU, { 'host.name': 'web3' }, 13, constant(4, 0.99));
    clock.now = at(17);
    await server.lantern.alerting.scheduler.tick();
    const [web3] = (await server.call<AlertListResponse>('GET', `/alerts?q=monitor:${cpu.id}`)).body.alerts;
    expect(web3).toMatchObject({
      name: 'CPU: cpu{host.name=web3}',
      state: 'open',
      createdAt: minute(14).toISOString(),
    });
    expect(await monitorOf(cpu.id)).toMatchObject({ state: 'firing' });

    clock.now = at(80); // web3's last datapoint (minute 16) is out of the window: the engine no longer returns it
    await server.lantern.alerting.scheduler.tick();
    expect((await server.call<{ alert: Alert }>('GET', `/alerts/${web3.id}`)).body.alert.state).toBe('closed');
    expect(WebhookMessage.parse(receiver.on('/webhook').at(-1)!.body)).toMatchObject({
      eventName: 'state-changed',
      alert: { id: String(web3.id), state: 'closed' },
    });
    expect(await monitorOf(cpu.id)).toMatchObject({ state: 'no-data', alertOpenCount: 0 });
  });

  it('is no-data while an ungrouped query has no datapoint in the window', async () => {
    const created = await server.call('POST', '/monitors/metric', {
      name: 'Old',
      params: metricParams({
        metrics: [{ name: 'queue.consumers', alias: 'q' }],
        query: 'avg($q) as consumers',
        column: 'consumers',
        minValue: 1,
        maxValue: null,
      }),
    });
    const id = MonitorResponse.parse(created.body).monitor.id;
    await server.lantern.alerting.scheduler.tick(); // at 80: queue.consumers' last datapoint (minute 12) is out of the window
    expect(await monitorOf(id)).toMatchObject({ state: 'no-data' });
  });
});
