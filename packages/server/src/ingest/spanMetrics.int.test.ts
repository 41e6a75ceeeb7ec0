import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Alert,
  type AlertListResponse,
  ChannelResponse,
  MetricsListResponse,
  MonitorResponse,
  TableResponse,
  toText,
  WebhookMessage,
} from '@lantern/shared';
import { PROJECT1_TOKEN, removeDataDir, signIn } from '@lantern/testkit/harness';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { createTestLogger, createTestTracer } from '@lantern/testkit/otlpClients';
import { startHttpReceiver, startSmtpReceiver, type HttpReceiver, type SmtpReceiver } from '@lantern/testkit/receivers';
import { startAlertingServer, type AlertingTestServer } from '../alerting/alertingTestServer';

/**
 * Metrics from spans end to end: spans (with errors, exceptions and events) recorded with the
 * OpenTelemetry JS SDK go through the real OTLP/HTTP endpoint; the derived `lantern.tracing.spans`
 * and `lantern.tracing.events` answer exact counts and bucket-accurate quantiles through the
 * metrics API; and a latency monitor over them, run by the real scheduler on an injected clock,
 * fires to a real webhook receiver and resolves when the spans get fast again. The timeline lies
 * 30 minutes in the past, so every minute written is over when the monitor looks at it.
 */
let receiver: HttpReceiver;
let smtp: SmtpReceiver;
let server: AlertingTestServer;
let cookie = '';
const T0 = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 30 * 60_000 + 30_000);
const clock = { now: T0 };
const at = (min: number) => new Date(T0.getTime() + min * 60_000);
const minute = (min: number) => new Date(Math.floor(at(min).getTime() / 60_000) * 60_000);

interface Sent {
  ok: number;
  error: number;
  events: number;
  durationsMs: number[];
}

/**
 * `n` spans of POST /checkout per minute in [fromMin, toMin): the i-th lasts `durationMs(i)`; every
 * fifth fails (an ERROR status and a recorded exception); every even one logs a `cache.miss`
 * event. Sent with the real SDK and OTLP/HTTP protobuf exporter; resolves once acknowledged.
 */
async function sendSpans(fromMin: number, toMin: number, n: number, durationMs: (i: number) => number): Promise<Sent> {
  const t = createTestTracer('http-proto', {
    httpUrl: server.baseUrl,
    grpcUrl: '',
    dsn: `http://${PROJECT1_TOKEN}@127.0.0.1/1`,
    serviceName: 'shop',
  });
  const sent: Sent = { ok: 0, error: 0, events: 0, durationsMs: [] };
  for (let m = fromMin; m < toMin; m++) {
    for (let i = 0; i < n; i++) {
      const start = minute(m).getTime() + 1000 + i * 100;
      const span = t.tracer.startSpan('POST /checkout', {
        kind: SpanKind.SERVER,
        startTime: new Date(start),
        attributes: { 'http.request.method': 'POST', 'http.route': '/checkout' },
      });
      if (i % 2 === 0) {
        span.addEvent('cache.miss', { key: `cart:${i}` }, new Date(start + 1));
        sent.events++;
      }
      if (i % 5 === 0) {
        span.recordException(new Error('card declined'), new Date(start + 2));
        span.setStatus({ code: SpanStatusCode.ERROR, message: 'card declined' });
        sent.events++;
        sent.error++;
      } else sent.ok++;
      span.end(new Date(start + durationMs(i)));
      sent.durationsMs.push(durationMs(i));
    }
  }
  await t.shutdown();
  expect(t.results.length).toBeGreaterThan(0);
  expect(t.results.every((r) => r.code === ExportResultCode.SUCCESS)).toBe(true);
  return sent;
}

async function api<T = unknown>(path: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server.baseUrl}${path}`, { headers: { cookie } });
  return { status: res.status, body: (await res.json()) as T };
}

function table(
  query: string,
  fromMin: number,
  toMin: number,
  metrics: Record<string, string> = { spans: 'lantern.tracing.spans' },
) {
  const m = Object.entries(metrics)
    .map(([alias, name]) => `metric=${encodeURIComponent(name)}&alias=${alias}`)
    .join('&');
  const range = `time_gte=${minute(fromMin).toISOString()}&time_lt=${minute(toMin).toISOString()}`;
  return api(`/api/v1/metrics/1/table?${range}&${m}&query=${encodeURIComponent(query)}`).then((r) => {
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const t = TableResponse.parse(r.body);
    expect(t.query.parts.map((p) => p.error)).toEqual(t.query.parts.map(() => ''));
    return t;
  });
}

/** Within one bucket: buckets are 2^(1/8) wide (about 9 %). */
const BUCKET = 2 ** (1 / 8);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length / 2) - 1];
const p = (q: number, xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * q) - 1];

/** Log records with the logs SDK in minute `min`: `warn` WARN records and `error` ERROR ones. */
async function sendLogs(min: number, warn: number, error: number): Promise<void> {
  const t = createTestLogger('http-proto', {
    httpUrl: server.baseUrl,
    grpcUrl: '',
    dsn: `http://${PROJECT1_TOKEN}@127.0.0.1/1`,
    serviceName: 'shop',
  });
  const time = minute(min).getTime() + 5000;
  for (let i = 0; i < warn; i++)
    t.logger.emit({
      timestamp: time + i,
      severityNumber: SeverityNumber.WARN,
      severityText: 'WARN',
      body: `stock low for sku ${i}`,
    });
  for (let i = 0; i < error; i++)
    t.logger.emit({
      timestamp: time + i,
      severityNumber: SeverityNumber.ERROR,
      severityText: 'ERROR',
      body: `payment gateway timeout after ${i} ms`,
    });
  await t.shutdown();
  expect(t.results.every((r) => r.code === ExportResultCode.SUCCESS)).toBe(true);
}

let normal: Sent;

beforeAll(async () => {
  receiver = await startHttpReceiver();
  smtp = await startSmtpReceiver();
  server = await startAlertingServer({ smtpPort: smtp.port, clock, metrics: 'built-in' });
  cookie = await signIn(server.baseUrl);
  // Minutes -10..-4: 20 spans a minute lasting 20..115 ms. Minutes -3..-1: the same, 10x slower.
  normal = await sendSpans(-10, -3, 20, (i) => 20 + i * 5);
  await sendSpans(-3, 0, 20, (i) => 200 + i * 50);
  await sendLogs(-5, 3, 2);
});
afterAll(async () => {
  await server?.lantern.close();
  await receiver?.close();
  await smtp?.close();
  if (server) removeDataDir(server.dataDir);
});

describe('lantern.tracing.spans and lantern.tracing.events', () => {
  it('are listed with their attribute keys, and their attributes have values', async () => {
    const list = MetricsListResponse.parse((await api('/api/v1/metrics/1')).body);
    const byName = Object.fromEntries(list.metrics.map((m) => [m.name, m]));
    expect(byName['lantern.tracing.spans']).toMatchObject({
      instrument: 'histogram',
      unit: 'microseconds',
      attrKeys: ['.system', '.group_id', 'service.name', 'host.name', '.status_code'],
    });
    expect(byName['lantern.tracing.events']).toMatchObject({
      instrument: 'counter',
      attrKeys: ['.system', '.group_id', '.name', 'host.name', 'log.severity'],
    });
    const range = `time_gte=${minute(-10).toISOString()}&time_lt=${minute(0).toISOString()}`;
    const values = async (metric: string, key: string) =>
      (
        await api<{ items: { value: string }[] }>(
          `/api/v1/metrics/1/attr-values?${range}&metric=${metric}&attr_key=${encodeURIComponent(key)}`,
        )
      ).body.items.map((i) => i.value);
    // An OTLP span with no status set is `unset` (not `ok`).
    expect(await values('lantern.tracing.spans', '.status_code')).toEqual(['error', 'unset']);
    expect(await values('lantern.tracing.spans', 'service.name')).toEqual(['shop']);
    expect(await values('lantern.tracing.spans', '.system')).toEqual(['http:shop']);
    expect(await values('lantern.tracing.events', '.name')).toEqual(['cache.miss', 'exception', 'log']);
  });

  it('count per status equals the spans sent, per_min and error rate too', async () => {
    const byStatus = await table('count($spans) as n | group by .status_code', -10, -3);
    expect(Object.fromEntries(byStatus.items.map((r) => [r['.status_code'], r.n]))).toEqual({
      unset: normal.ok,
      error: normal.error,
    });
    const rate = await table(
      'count($spans{.status_code="error"}) / count($spans) as err_rate | per_min(count($spans)) as rpm',
      -10,
      -3,
    );
    expect(rate.items).toHaveLength(1);
    expect(rate.items[0].err_rate).toBeCloseTo(normal.error / (normal.ok + normal.error), 6);
    expect(rate.items[0].rpm).toBeCloseTo(20, 6);
  });

  it('quantiles fall within one bucket of the spans own durations (microseconds)', async () => {
    const t = await table('p50($spans) as p50 | p90($spans) as p90 | avg($spans) as avg | max($spans) as max', -10, -3);
    const [row] = t.items;
    const us = normal.durationsMs.map((d) => d * 1000);
    for (const [name, want] of [
      ['p50', median(us)],
      ['p90', p(0.9, us)],
    ] as const) {
      const got = row[name] as number;
      expect(got / want, `${name}: ${got} vs ${want}`).toBeLessThan(BUCKET);
      expect(want / got, `${name}: ${got} vs ${want}`).toBeLessThan(BUCKET);
    }
    expect(row.avg).toBeCloseTo(us.reduce((a, b) => a + b, 0) / us.length, 3);
    expect(row.max).toBe(115_000);
  });

  it('counts events, exceptions and logs (by severity), not spans', async () => {
    const t = await table('sum($events) as n | group by .name', -10, -3, { events: 'lantern.tracing.events' });
    const byName = Object.fromEntries(t.items.map((r) => [r['.name'], r.n]));
    expect(byName).toEqual({ 'cache.miss': normal.events - normal.error, exception: normal.error, log: 5 });
    const logs = await table('sum($events{.name="log"}) as n | group by log.severity', -10, -3, {
      events: 'lantern.tracing.events',
    });
    expect(Object.fromEntries(logs.items.map((r) => [r['log.severity'], r.n]))).toEqual({ WARN: 3, ERROR: 2 });
  });

  it('answers every query the Monitor menus fill in, with the group where they add', async () => {
    const groups = await table('count($spans) as n | group by .group_id', -10, -3);
    expect(groups.items).toHaveLength(1);
    const where = `where .group_id = ${toText(groups.items[0]['.group_id'])}`;
    const minutes = 7;
    const us = normal.durationsMs.map((d) => d * 1000);
    const cases: [string, number][] = [
      ['per_min(count($spans))', (normal.ok + normal.error) / minutes],
      ['per_min(count($spans{.status_code="error"}))', normal.error / minutes],
      ['count($spans{.status_code="error"}) / count($spans) as err_rate', normal.error / (normal.ok + normal.error)],
      ['p50($spans)', median(us)],
      ['p90($spans)', p(0.9, us)],
      ['p99($spans)', p(0.99, us)],
      ['avg($spans)', us.reduce((a, b) => a + b, 0) / us.length],
    ];
    for (const [q, want] of cases) {
      const t = await table(`${q} | ${where}`, -10, -3);
      expect(t.items, q).toHaveLength(1);
      const got = t.items[0][t.columns[0].name] as number;
      expect(Math.max(got / want, want / got), `${q}: ${got} vs ${want}`).toBeLessThan(
        q.startsWith('p') ? BUCKET : 1.000001,
      );
    }
    const eventGroups = await table('sum($events) as n | group by .group_id | group by .name', -10, -3, {
      events: 'lantern.tracing.events',
    });
    const misses = eventGroups.items.find((r) => r['.name'] === 'cache.miss')!;
    const events = await table(`per_min($events) | where .group_id = ${toText(misses['.group_id'])}`, -10, -3, {
      events: 'lantern.tracing.events',
    });
    expect(events.items[0][events.columns[0].name]).toBeCloseTo((normal.events - normal.error) / minutes, 6);
  });
});

describe('the Services dashboard', () => {
  it('is installed once spans arrive, and every query of it answers with data', async () => {
    type Dash = {
      id: string;
      templateId: string;
      name: string;
      tableMetrics: { name: string; alias: string }[];
      tableQuery: string;
    };
    type Item = {
      type: string;
      name: string;
      params: { metrics?: { name: string; alias: string }[]; metric?: string; query: string };
    };
    let dash: Dash | undefined;
    for (const until = Date.now() + 15_000; !dash && Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
      dash = (await api<{ dashboards: Dash[] }>('/api/v1/metrics/1/dashboards')).body.dashboards.find(
        (d) => d.templateId === 'lantern.tracing.services',
      );
    }
    expect(dash?.name).toBe('Services');
    const metricsOf = (ms: { name: string; alias: string }[]) => Object.fromEntries(ms.map((m) => [m.alias, m.name]));

    const services = await table(dash!.tableQuery, -10, -3, metricsOf(dash!.tableMetrics));
    expect(services.items).toHaveLength(1);
    expect(services.items[0]).toMatchObject({ 'service.name': 'shop', requests_per_min: 20 });
    expect(services.items[0].error_rate).toBeCloseTo(0.2, 6);

    const { grid } = (await api<{ grid: Item[] }>(`/api/v1/metrics/1/dashboards/${dash!.id}`)).body;
    expect(grid.map((c) => c.name)).toEqual([
      'Requests per minute',
      'Errors per minute',
      'Error rate',
      'Latency percentiles',
      'p99 latency per service',
      'Latency heatmap',
      'Slowest operations',
      'Requests per minute per operation',
    ]);
    for (const item of grid.filter((c) => c.type !== 'heatmap')) {
      const t = await table(item.params.query, -10, -3, metricsOf(item.params.metrics!));
      expect(t.items.length, item.name).toBeGreaterThan(0);
      for (const row of t.items)
        for (const c of t.columns.filter((c) => !c.isGroup))
          expect(Number.isFinite(row[c.name]), `${item.name}: ${c.name}`).toBe(true);
    }
  });
});

describe('a latency monitor over lantern.tracing.spans', () => {
  const monitorOf = async (id: string) =>
    MonitorResponse.parse((await server.call('GET', `/monitors/${id}`)).body).monitor;

  it('fires to a webhook when p90 crosses the threshold, and resolves when the spans get fast again', async () => {
    const hook = ChannelResponse.parse(
      (
        await server.call('POST', '/notification-channels/webhook', {
          name: 'hook',
          params: { url: `${receiver.url}/webhook` },
        })
      ).body,
    ).channel;
    const created = await server.call('POST', '/monitors/metric', {
      name: 'Checkout latency',
      channelIds: [hook.id],
      params: {
        metrics: [{ name: 'lantern.tracing.spans', alias: 'spans' }],
        query: 'p90($spans) as p90 | where .status_code != "error" | group by service.name',
        column: 'p90',
        columnUnit: 'microseconds',
        forDuration: 3,
        forDurationUnit: 'minutes',
        maxValue: 500_000,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const monitorId = MonitorResponse.parse(created.body).monitor.id;

    // Minutes -3..-1 had p90 about 1 s: three minutes above 500 ms.
    await server.lantern.alerting.scheduler.tick();
    const alerts = (await server.call<AlertListResponse>('GET', `/alerts?q=monitor:${monitorId}`)).body.alerts;
    expect(alerts).toHaveLength(1);
    const alert: Alert = alerts[0];
    expect(alert).toMatchObject({
      type: 'metric',
      state: 'open',
      attrs: { 'service.name': 'shop' },
      createdAt: minute(-3).toISOString(),
    });
    expect((alert.params as { outlier: number }).outlier).toBeGreaterThan(500_000);
    expect(receiver.on('/webhook').map((r) => WebhookMessage.parse(r.body))).toMatchObject([
      { eventName: 'created', alert: { id: String(alert.id), state: 'open' } },
    ]);
    expect(await monitorOf(monitorId)).toMatchObject({ state: 'firing' });

    // Fast again from minute 0: closed once in bounds for forDuration + 5 minutes.
    await sendSpans(0, 8, 20, (i) => 20 + i * 5);
    clock.now = at(7);
    await server.lantern.alerting.scheduler.tick();
    expect((await server.call<{ alert: Alert }>('GET', `/alerts/${alert.id}`)).body.alert.state).toBe('open');
    clock.now = at(8);
    await server.lantern.alerting.scheduler.tick();
    expect((await server.call<{ alert: Alert }>('GET', `/alerts/${alert.id}`)).body.alert.state).toBe('closed');
    expect(receiver.on('/webhook').map((r) => WebhookMessage.parse(r.body).eventName)).toEqual([
      'created',
      'state-changed',
    ]);
    expect(WebhookMessage.parse(receiver.on('/webhook').at(-1)!.body)).toMatchObject({ alert: { state: 'closed' } });
    expect(await monitorOf(monitorId)).toMatchObject({ state: 'active', alertOpenCount: 0 });
  });
});
