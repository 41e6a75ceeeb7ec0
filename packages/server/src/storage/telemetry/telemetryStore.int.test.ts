import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClickHouseStandIn, type ClickHouseStandIn } from '@lantern/testkit/clickhouse/fixture';
import type { SpanRow } from './spanRow';
import { ident, param, sql } from '../sql';
import { openChdbStore } from './chdbStore';
import { openClickHouseStore } from './clickhouseStore';
import { shareIdenticalReads } from './sharedReads';
import { encodeSpans } from './spanRowEncoding';
import { stageSpans } from './spanStaging';
import type { TelemetryStore } from './telemetryStore';
import { testSpanRow } from './testSpanRow';

/**
 * The same checks against every TelemetryStore: embedded chDB and the remote ClickHouse store.
 */
// Row times must be recent: rows older than the retention TTL are dropped by merges.
const NOW_NS = BigInt(Date.now()) * 1_000_000n + 123_456_789n;
const limits = { ttl: { spansDays: 30, metricsDays: 90 }, maxMemoryUsage: 2 * 1024 ** 3, maxThreads: 2 };
type Ttl = typeof limits.ttl;

function span(i: number, extra: Partial<SpanRow> = {}): SpanRow {
  return testSpanRow({
    traceId: 'ab'.repeat(15) + i.toString(16).padStart(2, '0'),
    id: 0xfffffffffffffff0n + BigInt(i),
    groupId: 0xdeadbeefcafebaben,
    name: 'GET /users/:id',
    displayName: 'GET /users/:id',
    timeNs: NOW_NS + BigInt(i),
    durationNs: 1500,
    attrs: { 'service.name': 'api', 'http.status_code': 200, 'x.flag': true, 'x.list': ['a', 'b'] },
    ...extra,
  });
}

/** Every telemetry table with rows in time, and the retention (days) of the config it follows. */
const RETAINED: Record<string, 'spansDays' | 'metricsDays'> = {
  spans_index: 'spansDays',
  spans_data: 'spansDays',
  span_groups_1m: 'spansDays',
  span_groups_1h: 'spansDays',
  span_attr_groups_15m: 'spansDays',
  datapoint_minutes: 'metricsDays',
  datapoint_15m: 'metricsDays',
  datapoint_hours: 'metricsDays',
};

/**
 * Reads until `done` holds, 15 s at most: the engine drops an expired part in a background TTL pass,
 * mostly at once, sometimes a moment later (one run in three under load).
 */
async function afterTtlPass<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  let v = await read();
  for (let i = 0; i < 60 && !done(v); i++) {
    await new Promise((r) => setTimeout(r, 250));
    v = await read();
  }
  return v;
}

function storeChecks(open: (ttl?: Ttl) => TelemetryStore) {
  let store: TelemetryStore;
  beforeAll(async () => {
    store = open();
    await store.migrate();
    await store.migrate(); // idempotent
  });
  afterAll(async () => store?.close());

  it('writes rows and reads them back exactly (64-bit ids, nanosecond times, promoted columns)', async () => {
    await store.insertSpans([span(1), span(2)]);
    const rows = await store.query<Record<string, unknown>>(sql`
      SELECT id, group_id, service_name, attr_keys, attr_values, toUnixTimestamp64Nano(time) AS t
      FROM spans_index WHERE project_id = ${param.uint32(1)} AND trace_id = ${param.traceId('ab'.repeat(15) + '01')}`);
    expect(rows).toEqual([
      {
        id: (0xfffffffffffffff0n + 1n).toString(),
        group_id: 0xdeadbeefcafebaben.toString(),
        service_name: 'api',
        attr_keys: ['http.status_code', 'x.flag', 'x.list'],
        attr_values: ['200', 'true', '["a","b"]'],
        t: (((NOW_NS + 1n) / 1000n) * 1000n).toString(),
      },
    ]);
    const data = await store.query<{ t: string }>(sql`
      SELECT toUnixTimestamp64Nano(time) AS t FROM spans_data WHERE trace_id = ${param.traceId('ab'.repeat(15) + '02')}`);
    expect(data).toEqual([{ t: (NOW_NS + 2n).toString() }]);
  });

  it('keeps hostile text as data', async () => {
    const hostile = "x'); DROP TABLE spans_index; --\\";
    await store.insertSpans([span(3, { name: hostile, displayName: hostile })]);
    const rows = await store.query<{ name: string }>(
      sql`SELECT name FROM spans_index WHERE name = ${param.string(hostile)}`,
    );
    expect(rows).toEqual([{ name: hostile }]);
    const count = await store.query<{ c: string }>(sql`SELECT count() AS c FROM spans_index`);
    expect(Number(count[0].c)).toBeGreaterThanOrEqual(3);
  });

  it('round-trips every awkward character in names, attribute keys and values', async () => {
    const nasty = "tab\there, new\nline, cr\r, nul\0, back\\slash, quote' \"dq\" [a,b] 'x','y' ünï €";
    const attrs = { 'service.name': nasty, [`k'${nasty}`]: nasty, 'x.obj': { [nasty]: [nasty, 1.5] } };
    await store.insertSpans([span(4, { name: nasty, statusMessage: nasty, attrs })]);
    const traceId = 'ab'.repeat(15) + '04';
    const rows = await store.query<Record<string, unknown>>(sql`
      SELECT name, status_message, service_name, attr_keys, attr_values
      FROM spans_index WHERE trace_id = ${param.traceId(traceId)}`);
    expect(rows).toEqual([
      {
        name: nasty,
        status_message: nasty,
        service_name: nasty,
        attr_keys: [`k'${nasty}`, 'x.obj'],
        attr_values: [nasty, JSON.stringify(attrs['x.obj'])],
      },
    ]);
    const data = await store.query<{ data: string }>(
      sql`SELECT data FROM spans_data WHERE trace_id = ${param.traceId(traceId)}`,
    );
    expect(JSON.parse(data[0].data)).toMatchObject({ name: nasty, statusMessage: nasty, attrs });
  });

  /** Each table's TTL in days, as the engine has it. */
  const ttlDays = async () => {
    const tables = await store.query<{ name: string; engine_full: string }>(
      sql`SELECT name, engine_full FROM system.tables WHERE database = currentDatabase() AND name IN (${param.strings(Object.keys(RETAINED))})`,
    );
    return Object.fromEntries(
      tables.map((t) => [t.name, Number(/TTL toDate\(time\) \+ toIntervalDay\((\d+)\)/.exec(t.engine_full)?.[1])]),
    );
  };
  const expectedDays = (ttl: Ttl) => Object.fromEntries(Object.entries(RETAINED).map(([t, k]) => [t, ttl[k]]));

  it('gives every table with rows in time the retention of the config', async () => {
    expect(await ttlDays()).toEqual(expectedDays(limits.ttl));
  });

  it('never keeps spans past the retention, rollups included, and keeps the others', async () => {
    const old = span(0xe0, { timeNs: NOW_NS - 40n * 86_400n * 1_000_000_000n });
    const recent = span(0xe1);
    await store.insertSpans([old, recent]);
    for (const table of ['spans_index', 'spans_data']) {
      const [n] = await afterTtlPass(
        () =>
          store.query<{ old: string; recent: string }>(
            sql`SELECT countIf(trace_id = ${param.traceId(old.traceId)}) AS old, countIf(trace_id = ${param.traceId(recent.traceId)}) AS recent FROM ${ident(table)}`,
          ),
        ([n]) => n.old === '0',
      );
      expect(n, table).toEqual({ old: '0', recent: '1' });
    }
    const [minutes] = await afterTtlPass(
      () =>
        store.query<{ n: string }>(sql`SELECT count() AS n FROM span_groups_1m WHERE time < now() - INTERVAL 30 DAY`),
      ([m]) => m.n === '0',
    );
    expect(minutes.n).toBe('0');
  });

  it('follows a changed retention on the next start, on every table', async () => {
    await store.close();
    const changed = { spansDays: 7, metricsDays: 30 };
    store = open(changed);
    await store.migrate();
    expect(await ttlDays()).toEqual(expectedDays(changed));
  });

  it('shares one engine call among identical reads in flight (sharedReads.test.ts: never across a write)', async () => {
    let calls = 0;
    const shared = shareIdenticalReads({
      ...store,
      query: (q) => {
        calls++;
        return store.query(q);
      },
    });
    // sleep() keeps a read in flight while the others are issued.
    const count = (name: string) => sql`
      SELECT (SELECT count() FROM spans_index WHERE name = ${param.string(name)}) AS n, sleep(0.4) AS s`;
    await store.insertSpans([span(40, { name: 'shared read' })]);

    const [a, b, c, other] = await Promise.all([
      shared.query<{ n: string }>(count('shared read')),
      shared.query<{ n: string }>(count('shared read')),
      shared.query<{ n: string }>(count('shared read')),
      shared.query<{ n: string }>(count('another read')),
    ]);
    expect(calls).toBe(2);
    expect([a, b, c, other].map((r) => r[0].n)).toEqual(['1', '1', '1', '0']);
    // Rows of their own: one caller's change is not another's.
    a[0].n = 'changed';
    expect([b[0].n, c[0].n]).toEqual(['1', '1']);

    // Settled: the same read runs again.
    await shared.query(count('shared read'));
    expect(calls).toBe(3);
  });

  it('reports engine errors as StoreQueryError with the query text', async () => {
    await expect(store.query(sql`SELECT no_such_column FROM spans_index`)).rejects.toMatchObject({
      name: 'StoreQueryError',
      queryText: 'SELECT no_such_column FROM spans_index',
    });
    await expect(store.queryText(sql`SELECT no_such_column FROM spans_index`)).rejects.toMatchObject({
      name: 'StoreQueryError',
    });
  });

  it('hands a value of JSON text over as the engine wrote it (queryText: nothing escaped)', async () => {
    // A 64-bit integer stays the text it was (no JSON number of JS would write it).
    const json = `${JSON.stringify({ s: 'quote " back\\slash tab\t ünï €', a: [1, null] }).slice(0, -1)},"n":18446744073709551615}`;
    const text = await store.queryText(sql`SELECT ${param.string(json)} AS j, 2 AS n`);
    expect(text).toBe(`${json}\t2\n`);
  });
}

describe('chDB store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-store-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  storeChecks((ttl = limits.ttl) => openChdbStore({ path: dir, ...limits, ttl }));
});

describe('chDB store, staged batch files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-store-staging-'));
  const staging = join(dir, 'ingest-staging');
  let store: TelemetryStore;
  beforeAll(async () => {
    // What a crash in the middle of an insert leaves behind.
    mkdirSync(staging, { recursive: true });
    writeFileSync(join(staging, '7.tsv'), 'half a batch');
    // A data directory given relative to the working directory, as the default `data` is.
    store = openChdbStore({ path: relative(process.cwd(), dir), ...limits });
    await store.migrate();
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('clears left-over batch files when it opens', () => {
    expect(readdirSync(staging)).toEqual([]);
  });

  it('removes each batch file once inserted, and after a refused insert too, storing nothing of it', async () => {
    await store.insertSpans([span(1), span(2)]);
    expect(readdirSync(staging)).toEqual([]);
    // Staged as files whatever their size (minFileBytes 0), next to a small chunk kept in memory.
    const good = stageSpans(store.stagingDir, encodeSpans([span(3)]), 0);
    const broken = stageSpans(
      store.stagingDir,
      { rows: 1, index: Buffer.from('not a row\n'), data: Buffer.from('1\tnot\ta\trow\n') },
      0,
    );
    const small = stageSpans(store.stagingDir, encodeSpans([span(4)]));
    expect(small.file).toBeNull();
    expect(readdirSync(staging)).toHaveLength(4);
    await expect(store.insertStagedSpans([good, small, broken])).rejects.toMatchObject({ name: 'StoreQueryError' });
    expect(readdirSync(staging)).toEqual([]);
    const [{ n }] = await store.query<{ n: string }>(sql`SELECT count() AS n FROM spans_data`);
    expect(n).toBe('2');
  });

  it('inserts the chunks of a batch from their files together, however many there are', async () => {
    const chunks = [
      stageSpans(store.stagingDir, encodeSpans([span(10), span(11)]), 0),
      stageSpans(store.stagingDir, encodeSpans([span(12)])),
    ];
    await store.insertStagedSpans(chunks);
    expect(readdirSync(staging)).toEqual([]);
    const ids = await store.query<{ id: string }>(
      sql`SELECT id FROM spans_index WHERE id > ${param.uint64(0xfffffffffffffff0n + 9n)} ORDER BY id`,
    );
    expect(ids.map((r) => BigInt(r.id) - 0xfffffffffffffff0n)).toEqual([10n, 11n, 12n]);
    // A batch of many one-span requests, in files and in memory.
    const many = Array.from({ length: 3000 }, (_, i) =>
      stageSpans(store.stagingDir, encodeSpans([span(1, { id: BigInt(i + 1) })]), i % 2 ? 0 : undefined),
    );
    await store.insertStagedSpans(many);
    expect(readdirSync(staging)).toEqual([]);
    const [{ n }] = await store.query<{ n: string }>(sql`SELECT count() AS n FROM spans_data`);
    expect(n).toBe(String(2 + 3 + 3000));
  });
});

// Over HTTP through @clickhouse/client: a ClickHouse server given in LANTERN_TEST_CH_URL, else the
// test stand-in (the ClickHouse HTTP interface in front of chDB, packages/testkit/src/clickhouse/server.ts).
describe('remote ClickHouse store', () => {
  let standIn: ClickHouseStandIn | undefined;
  let url = process.env.LANTERN_TEST_CH_URL ?? '';
  beforeAll(async () => {
    if (url) return;
    standIn = await startClickHouseStandIn();
    url = standIn.url;
  });
  afterAll(async () => standIn?.stop());
  storeChecks((ttl = limits.ttl) => openClickHouseStore({ url, ...limits, ttl }));
});
