import { SeverityNumber } from '@opentelemetry/api-logs';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { GroupsResponse, SpanResponse, SpansResponse } from '@lantern/shared';
import { createTestLogger, createTestTracer } from '@lantern/testkit/otlpClients';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * Lists of logs and events return the rows their counts count (issue 20, item 1): OTel SDK logs,
 * spans with recordException and plain span events go in over OTLP; for each system filter the
 * list answers as many rows as its count, page after page, each shown as itself, and the span
 * card opens for a log or event by its id.
 */
const server = useLantern({ env: { LANTERN_INGEST_FLUSH_INTERVAL_MS: '50' } });
const LOGS = 13;
const FAILED = 4;
/** Every third log is an error. */
const ERROR_LOGS = Math.ceil(LOGS / 3);

async function api(path: string, params: Record<string, string>) {
  const minute = Math.floor(Date.now() / 60_000) * 60_000;
  const qs = new URLSearchParams({
    time_gte: new Date(minute - 3600_000).toISOString(),
    time_lt: new Date(minute + 120_000).toISOString(),
    ...params,
  });
  const res = await fetch(`${server.lantern.baseUrl}/api/v1/tracing/1/${path}?${qs}`, {
    headers: { cookie: server.cookie },
  });
  return { status: res.status, body: await res.json() };
}

async function list(system: string, page = 1, limit = 5) {
  const r = await api('spans', { 'system[]': system, query: '', page: String(page), limit: String(limit) });
  expect(r.status).toBe(200);
  return SpansResponse.parse(r.body);
}

/** Every page of a list, and its count. */
async function all(system: string) {
  const first = await list(system);
  const rows = [...first.spans];
  for (let page = 2; rows.length < first.count && page < 20; page++) rows.push(...(await list(system, page)).spans);
  return { count: first.count, rows };
}

beforeAll(async () => {
  const opts = {
    httpUrl: server.lantern.baseUrl,
    grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
    dsn: server.dsn,
  };
  const logger = createTestLogger('http-proto', { ...opts, serviceName: 'billing' });
  for (let i = 0; i < LOGS; i++) {
    logger.logger.emit({
      severityNumber: i % 3 === 0 ? SeverityNumber.ERROR : SeverityNumber.INFO,
      severityText: i % 3 === 0 ? 'ERROR' : 'INFO',
      body: `payment ${1000 + i} processed`,
    });
  }
  await logger.shutdown();
  const t = createTestTracer('http-proto', { ...opts, serviceName: 'checkout' });
  for (let i = 0; i < FAILED; i++) {
    const root = t.tracer.startSpan('POST /checkout', { kind: SpanKind.SERVER });
    const child = t.tracer.startSpan('charge card', { kind: SpanKind.INTERNAL }, trace.setSpan(context.active(), root));
    child.addEvent('retrying', { attempt: 2 });
    child.recordException(new Error(`card ${i} declined`));
    child.setStatus({ code: SpanStatusCode.ERROR });
    child.end();
    root.end();
  }
  await t.shutdown();
  for (let i = 0; i < 100; i++) {
    if ((await list('log:all')).count >= LOGS && (await list('events:all')).count >= ERROR_LOGS + 2 * FAILED) return;
    await new Promise((r) => setTimeout(r, 100));
  }
});

describe('logs and events lists', () => {
  it.each(['log:all', 'log:error', 'events:all', 'all', 'spans:all'])(
    '%s: every page holds the rows the count counts',
    async (system) => {
      const { count, rows } = await all(system);
      expect(count).toBeGreaterThan(0);
      expect(rows).toHaveLength(count);
      expect(new Set(rows.map((r) => `${r.traceId}/${r.id}`)).size).toBe(count);
    },
  );

  it('shows a log as itself: its message, severity, service and time', async () => {
    const { rows } = await all('log:all');
    // The logs, and the exceptions (recorded exceptions are error logs of their span).
    expect(rows).toHaveLength(LOGS + FAILED);
    const log = rows.find((r) => r.displayName.includes('payment 1003'))!;
    expect(log).toMatchObject({ system: expect.stringMatching(/^log:/) });
    expect(log.attrs).toMatchObject({ 'service.name': 'billing' });
    expect((await all('log:error')).rows.every((r) => r.system === 'log:error')).toBe(true);
  });

  it('events:all holds span events and error logs (recorded exceptions among them), not the other logs', async () => {
    const { rows } = await all('events:all');
    expect(rows).toHaveLength(ERROR_LOGS + 2 * FAILED);
    expect(rows.filter((r) => r.system === 'log:info')).toEqual([]);
    const groups = await api('groups', { 'system[]': 'events:all', query: 'group by .system | .count' });
    expect(groups.status).toBe(200);
    const systems = GroupsResponse.parse(groups.body)
      .groups.map((g) => g['.system'])
      .sort();
    expect(systems).toEqual(['log:error', 'other-events']);
  });

  it('lists exceptions and span events with a link to their span, and the span card opens by their id', async () => {
    const { rows } = await all('events:all');
    const exceptions = rows.filter((r) => r.eventName === 'exception' || r.system.startsWith('exception'));
    expect(exceptions.length).toBe(FAILED);
    for (const e of exceptions) expect(e.parentId).toBeTruthy();
    const retry = rows.find((r) => r.displayName === 'retrying')!;
    expect(retry.parentId).toBeTruthy();
    const card = await api(`traces/${retry.traceId}/${retry.id}`, {});
    expect(card.status).toBe(200);
    expect(SpanResponse.parse(card.body).span).toMatchObject({
      id: retry.id,
      displayName: 'retrying',
      attrs: { attempt: 2 },
    });
  });
});
