import { randomUUID } from 'node:crypto';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { GroupsResponse, SpanResponse, SpansResponse, TraceResponse, type Span } from '@lantern/shared';
import { createTestLogger, createTestTracer } from '@lantern/testkit/otlpClients';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * Groups named by their template (issue 20, item 2): OTel SDK logs, spans with recordException
 * and db spans (SQL and Redis) go in over real OTLP; the groups list names each group by its
 * template (variables as placeholders, SQL literals as `?`), on the rollup path and on the raw
 * one, while the group's span rows keep their literal text. Redis commands group by command
 * whatever the key.
 */
const server = useLantern({ env: { LANTERN_INGEST_FLUSH_INTERVAL_MS: '50' } });
const N = 3;

const payments = Array.from(
  { length: N },
  (_, i) => `payment ${4407 + i * 13} for order ${randomUUID()} declined after ${101 + i}ms`,
);
const cards = Array.from(
  { length: N },
  (_, i) => `card ${4242 + i} declined for ${['ann', 'bob', 'cy'][i]}@example.com`,
);
const selects = Array.from(
  { length: N },
  (_, i) => `SELECT * FROM orders WHERE id = ${1000 + i} AND status = '${['new', 'paid', 'void'][i]}'`,
);
const cartGets = Array.from({ length: N }, (_, i) => `GET cart:${randomUUID()}:items:${1003 + i}`);
const sessionGets = Array.from({ length: N }, (_, i) => `GET session:${(0xab12cd34 + i).toString(16)}`);

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
  expect(res.status).toBe(200);
  return await res.json();
}

/** The groups of a system: `where` forces the raw path (spans_index); without, whole minutes read the rollups. */
async function groups(system: string, where = '') {
  const query = `group by .group_id | .count${where ? ` | ${where}` : ''}`;
  return GroupsResponse.parse(await api('groups', { 'system[]': system, query })).groups;
}

async function spansOf(system: string, groupQuery: string) {
  return SpansResponse.parse(await api('spans', { 'system[]': system, query: groupQuery, limit: '100' })).spans;
}

beforeAll(async () => {
  const opts = {
    httpUrl: server.lantern.baseUrl,
    grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
    dsn: server.dsn,
  };
  const logger = createTestLogger('http-proto', { ...opts, serviceName: 'billing' });
  for (const body of payments)
    logger.logger.emit({ severityNumber: SeverityNumber.ERROR, severityText: 'ERROR', body });
  await logger.shutdown();

  const t = createTestTracer('grpc', { ...opts, serviceName: 'checkout' });
  for (let i = 0; i < N; i++) {
    const root = t.tracer.startSpan('POST /checkout', { kind: SpanKind.SERVER });
    const ctx = trace.setSpan(context.active(), root);
    const charge = t.tracer.startSpan('charge card', { kind: SpanKind.INTERNAL }, ctx);
    charge.recordException({ name: 'CardError', message: cards[i] });
    charge.setStatus({ code: SpanStatusCode.ERROR });
    charge.end();
    const db = (name: string, system: string, statement: string) =>
      t.tracer
        .startSpan(name, { kind: SpanKind.CLIENT, attributes: { 'db.system': system, 'db.statement': statement } }, ctx)
        .end();
    db('SELECT orders', 'postgresql', selects[i]);
    db('GET', 'redis', cartGets[i]);
    db('GET', 'redis', sessionGets[i]);
    root.end();
  }
  await t.shutdown();

  for (let i = 0; i < 100; i++) {
    const counts = await Promise.all(
      ['log:error', 'db:postgresql', 'db:redis'].map(async (s) =>
        (await groups(s, 'where service.name exists')).reduce((n, g) => n + Number(g['.count']), 0),
      ),
    );
    if (counts[0] >= 2 * N && counts[1] >= N && counts[2] >= 2 * N) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the rows did not arrive');
});

describe.each([
  ['rollup path', ''],
  ['raw path', 'where service.name exists'],
])('groups named by their template (%s)', (_path, where) => {
  it('names a log group by its message template', async () => {
    const g = (await groups('log:error', where)).filter((x) => x._name.includes('payment'));
    expect(g.map((x) => [x._name, x['display.name'], x['.count']])).toEqual([
      [
        'ERROR payment <num> for order <uuid> declined after <duration>',
        'ERROR payment <num> for order <uuid> declined after <duration>',
        N,
      ],
    ]);
  });

  it('names an exception group by its type and message template', async () => {
    const g = (await groups('log:error', where)).filter((x) => x._name.startsWith('CardError'));
    expect(g.map((x) => [x._name, x['.count']])).toEqual([['CardError: card <num> declined for <email>', N]]);
  });

  it('names a SQL group by its statement with literals as ?', async () => {
    const g = await groups('db:postgresql', where);
    expect(g.map((x) => [x._name, x['.count']])).toEqual([['SELECT * FROM orders WHERE id = ? AND status = ?', N]]);
  });

  it('groups Redis commands by command whatever the key, named by a key template', async () => {
    const g = await groups('db:redis', where);
    expect(g).toHaveLength(1);
    expect(g[0]['.count']).toBe(2 * N);
    expect(['GET cart:<uuid>:items:<num>', 'GET session:<hex>']).toContain(g[0]._name);
  });
});

describe('rows of a template-named group', () => {
  it.each([
    ['log:error', 'payment', payments.map((m) => `ERROR ${m}`)],
    ['log:error', 'CardError', cards.map((m) => `CardError: ${m}`)],
    ['db:postgresql', 'SELECT', selects],
    ['db:redis', 'GET', [...cartGets, ...sessionGets]],
  ])('%s %s: the spans list shows each row with its literal text', async (system, prefix, literal) => {
    const group = (await groups(system)).find((x) => x._name.includes(prefix))!;
    const rows = await spansOf(system, group._query);
    expect(rows.map((r) => r.displayName).sort()).toEqual([...literal].sort());
  });

  it.each([
    ['log:error', 'payment'],
    ['log:error', 'CardError'],
    ['db:postgresql', 'SELECT'],
    ['funcs', 'charge card'],
  ])(
    "%s %s: the spans list and the span endpoint name each row's group as the groups list does",
    async (system, prefix) => {
      const group = (await groups(system)).find((x) => x._name.includes(prefix))!;
      const rows = await spansOf(system, group._query);
      expect(rows.map((r) => r.groupName)).toEqual(rows.map(() => group._name));
      for (const r of rows) {
        const res = await fetch(`${server.lantern.baseUrl}/api/v1/tracing/1/traces/${r.traceId}/${r.id}`, {
          headers: { cookie: server.cookie },
        });
        expect(res.status).toBe(200);
        const { span } = SpanResponse.parse(await res.json());
        expect([span.displayName, span.groupName]).toEqual([r.displayName, group._name]);
      }
    },
  );

  // The tree's spans: a log is an event of its span (or of the missing root), listed by its own text.
  it("db:postgresql SELECT: the trace answer names each row's group as the groups list does", async () => {
    const system = 'db:postgresql';
    const group = (await groups(system)).find((x) => x._name.includes('SELECT'))!;
    const rows = await spansOf(system, group._query);
    expect(rows).toHaveLength(N);
    for (const r of rows) {
      const res = await fetch(`${server.lantern.baseUrl}/api/v1/tracing/1/traces/${r.traceId}`, {
        headers: { cookie: server.cookie },
      });
      expect(res.status).toBe(200);
      const spans: Span[] = [];
      const walk = (s: Span) => {
        spans.push(s);
        s.children?.forEach(walk);
      };
      walk(TraceResponse.parse(await res.json()).root);
      const span = spans.find((s) => s.id === r.id);
      expect([span?.displayName, span?.groupName]).toEqual([r.displayName, group._name]);
    }
  });
});
