import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClickHouseStandIn, type ClickHouseStandIn } from '@lantern/testkit/clickhouse/fixture';
import type { SqlFragment } from '../sql';
import { openChdbStore } from './chdbStore';
import { openClickHouseStore } from './clickhouseStore';
import { SPAN_CODECS } from './schema';
import type { SpanRow } from './spanRow';
import type { TelemetryStore } from './telemetryStore';
import { testSpanRow } from './testSpanRow';

/**
 * Telemetry migration 11 (the span columns' codecs) on a store that holds spans written before it,
 * on embedded chDB and on the remote ClickHouse store: the rows read back the same before and
 * after the migration and after the old and new parts are merged into one, and the columns carry
 * the new codecs.
 */
const NOW_NS = BigInt(Date.now()) * 1_000_000n;
const limits = { ttl: { spansDays: 30, metricsDays: 90 }, maxMemoryUsage: 2 * 1024 ** 3, maxThreads: 2 };
const raw = (text: string): SqlFragment => ({ kind: 'fragment', parts: [text], values: [] });

/** The codecs of migration 10's schema for the columns migration 11 changes: else LZ4 (spans_index), ZSTD(1) (the others). */
const BEFORE: Record<string, Record<string, string>> = {
  spans_index: { group_id: 'Delta, LZ4', time: 'Delta, LZ4', duration: 'T64, LZ4' },
  spans_data: { parent_id: 'ZSTD(1)', time: 'Delta, ZSTD(1)' },
};

function rows(from: number, n: number): SpanRow[] {
  return Array.from({ length: n }, (_, i) => {
    const k = from + i;
    return testSpanRow({
      traceId: (k % 7).toString(16).padStart(2, '0').repeat(16),
      id: 0xfedcba9876543210n + BigInt(k),
      parentId: k % 3 ? BigInt(k - 1) : 0n,
      type: k % 2 ? 'db' : 'http',
      system: k % 2 ? 'db:postgresql' : 'http:api',
      groupId: BigInt(k % 5),
      kind: k % 2 ? 'client' : 'server',
      name: `op ${k % 4}`,
      eventName: k % 9 === 0 ? 'log' : '',
      displayName: `op ${k % 4} ünï "q" \\ '`,
      timeNs: NOW_NS + BigInt(k) * 1_234_567n,
      durationNs: (k * 7919) % 1_000_000,
      statusCode: k % 11 === 0 ? 'error' : 'ok',
      statusMessage: k % 11 === 0 ? 'failed\tbadly' : '',
      attrs: {
        'service.name': `svc-${k % 3}`,
        'host.name': `host-${k % 4}`,
        'deployment.environment': 'prod',
        'db.system': 'postgresql',
        'db.statement': `SELECT * FROM t${k % 6} WHERE id = $1`,
        'http.route': `/r/${k % 10}`,
        'enduser.id': `user-${k}`,
        'x.n': k * 1.5,
        'x.list': [k, 'a'],
      },
    });
  });
}

describe.each(['chDB', 'remote ClickHouse'] as const)('span codecs (migration 11), %s store', (kind) => {
  let store: TelemetryStore;
  let standIn: ClickHouseStandIn | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'lantern-codecs-'));
  beforeAll(async () => {
    if (kind === 'chDB') store = openChdbStore({ path: dir, ...limits });
    else {
      // A ClickHouse server given in LANTERN_TEST_CH_URL, else the test stand-in.
      let url = process.env.LANTERN_TEST_CH_URL ?? '';
      if (!url) url = (standIn = await startClickHouseStandIn()).url;
      store = openClickHouseStore({ url, ...limits });
    }
    await store.migrate();
  });
  afterAll(async () => {
    await store?.close();
    await standIn?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const codecs = async (table: string) =>
    Object.fromEntries(
      (
        await store.query<{ name: string; codec: string }>(
          raw(
            `SELECT name, compression_codec AS codec FROM system.columns WHERE database = currentDatabase() AND table = '${table}'`,
          ),
        )
      ).map((c) => [c.name, c.codec.replace(/^CODEC\((.*)\)$/, '$1').replace(/(Delta|T64)\(\d+\)/g, '$1')]),
    );
  const read = async () => ({
    index: await store.query(raw(`SELECT * FROM spans_index ORDER BY id`)),
    data: await store.query(raw(`SELECT * FROM spans_data ORDER BY id`)),
  });

  it('keeps the answers of spans written before it, on its new parts and once all are merged', async () => {
    // Back to a store of migration 10: the old codecs, migration 11 not recorded.
    for (const [table, columns] of Object.entries(SPAN_CODECS))
      for (const [column, typeAndCodec] of columns) {
        const before = BEFORE[table]?.[column] ?? (table === 'spans_index' ? 'LZ4' : 'ZSTD(1)');
        await store.query(
          raw(
            `ALTER TABLE ${table} MODIFY COLUMN ${column} ${typeAndCodec.replace(/CODEC\(.*\)$/, `CODEC(${before})`)}`,
          ),
        );
      }
    await store.query(raw(`ALTER TABLE lantern_migrations DELETE WHERE version = 11 SETTINGS mutations_sync = 1`));
    expect((await codecs('spans_index')).time).toBe('Delta, LZ4');

    await store.insertSpans(rows(0, 200));
    const before = await read();
    expect(before.index).toHaveLength(200);

    await store.migrate();
    for (const [table, columns] of Object.entries(SPAN_CODECS)) {
      const now = await codecs(table);
      for (const [column, typeAndCodec] of columns)
        expect(`CODEC(${now[column]})`, `${table}.${column}`).toBe(/CODEC\(.*\)$/.exec(typeAndCodec)![0]);
    }
    const versions = await store.query<{ version: number }>(raw(`SELECT version FROM lantern_migrations`));
    expect(versions.map((v) => Number(v.version))).toContain(11);
    expect(await read()).toEqual(before);

    // New rows in parts of the new codecs, then old and new parts merged into one.
    await store.insertSpans(rows(200, 100));
    const all = await read();
    expect(all.index).toHaveLength(300);
    expect(all.index.slice(0, 200)).toEqual(before.index);
    for (const table of ['spans_index', 'spans_data']) await store.query(raw(`OPTIMIZE TABLE ${table} FINAL`));
    expect(await read()).toEqual(all);
  });
});
