import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClickHouseStandIn, type ClickHouseStandIn } from '@lantern/testkit/clickhouse/fixture';
import { constant as raw } from '../sql';
import { openChdbStore } from './chdbStore';
import { openClickHouseStore } from './clickhouseStore';
import type { SpanRow } from './spanRow';
import type { TelemetryStore } from './telemetryStore';
import { testSpanRow } from './testSpanRow';

/**
 * Telemetry migration 22 (spans_data.data recompressed once its rows are an hour old, schema.ts
 * SPANS_DATA_RECOMPRESS) on a store that holds spans written before it, on embedded chDB and on the
 * remote ClickHouse store: the rows read back the same; a part of rows an hour old is ZSTD(9), one
 * with fresh rows ZSTD(1); the TTL survives the retention statements of the next start.
 */
const NOW_NS = BigInt(Date.now()) * 1_000_000n;
const HOUR_NS = 3600n * 1_000_000_000n;
const limits = { ttl: { spansDays: 30, metricsDays: 90 }, maxMemoryUsage: 2 * 1024 ** 3, maxThreads: 2 };

/** Spans of six traces, 1.2 ms apart from `startNs`, with text that JSON escapes in their data. */
const rows = (from: number, n: number, startNs: bigint): SpanRow[] =>
  Array.from({ length: n }, (_, i) =>
    testSpanRow({
      traceId: `${from + i}`.padStart(4, '0').slice(-1).repeat(32).replace(/[5-9]/g, 'e'),
      id: BigInt(1000 + from + i),
      parentId: (from + i) % 4 ? 999n : 0n,
      timeNs: startNs + BigInt(from + i) * 1_200_000n,
      attrs: { 'service.name': `svc-${i % 3}`, 'x.q': `"ü" \\ ${from + i}` },
    }),
  );

describe.each(['chDB', 'remote ClickHouse'] as const)('spans_data recompressed (migration 22), %s store', (kind) => {
  let store: TelemetryStore;
  let standIn: ClickHouseStandIn | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'lantern-recompress-'));
  const open = () => {
    if (kind === 'chDB') return openChdbStore({ path: dir, ...limits });
    return openClickHouseStore({ url: process.env.LANTERN_TEST_CH_URL || standIn!.url, ...limits });
  };
  beforeAll(async () => {
    if (kind !== 'chDB' && !process.env.LANTERN_TEST_CH_URL) standIn = await startClickHouseStandIn();
    store = open();
    await store.migrate();
  });
  afterAll(async () => {
    await store?.close();
    await standIn?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const read = () => store.query(raw(`SELECT * FROM spans_data ORDER BY id`));
  /** Each active part of spans_data: its newest row's age in hours (rounded down) and its codec. */
  const parts = async () =>
    (
      await store.query<{ old: number; codec: string }>(
        raw(`SELECT toUInt8(max_time < now() - INTERVAL 1 HOUR) AS old, default_compression_codec AS codec
          FROM system.parts WHERE database = currentDatabase() AND table = 'spans_data' AND active ORDER BY old`),
      )
    ).map((p) => `${Number(p.old) ? 'old' : 'fresh'}: ${p.codec}`);
  /**
   * The parts' kinds once they are `expected` (a day boundary can split the rows into two parts of
   * one kind), merged after the engine's own rewrites of the changed TTL (mutations) are done.
   */
  const settled = async (expected: string[]) => {
    let got: string[] = [];
    for (let i = 0; i < 60; i++) {
      await store.query(raw(`OPTIMIZE TABLE spans_data FINAL`));
      got = [...new Set(await parts())];
      if (JSON.stringify(got) === JSON.stringify(expected)) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    return got;
  };

  it('keeps the rows of a store before it, and writes a part of rows an hour old as ZSTD(9)', async () => {
    // Back to a store of migration 21: the JSON's own codec, no recompression, 22 not recorded.
    await store.query(raw(`ALTER TABLE spans_data MODIFY COLUMN data String CODEC(ZSTD(1))`));
    await store.query(raw(`ALTER TABLE spans_data MODIFY TTL toDate(time) + INTERVAL 30 DAY DELETE`));
    await store.query(raw(`ALTER TABLE lantern_migrations DELETE WHERE version = 22 SETTINGS mutations_sync = 1`));
    await store.insertSpans(rows(0, 200, NOW_NS - 3n * HOUR_NS));
    const before = await read();
    expect(before).toHaveLength(200);

    await store.close();
    store = open();
    await store.migrate();
    const [column] = await store.query<{ codec: string }>(
      raw(
        `SELECT compression_codec AS codec FROM system.columns WHERE database = currentDatabase() AND table = 'spans_data' AND name = 'data'`,
      ),
    );
    expect(column.codec).toBe('CODEC(Default)');
    expect(await settled(['old: ZSTD(9)'])).toEqual(['old: ZSTD(9)']);
    expect(await read()).toEqual(before);

    // Fresh rows: not recompressed, and ZSTD(1) once merged with the old ones; the TTL kept by a restart.
    await store.insertSpans(rows(200, 100, NOW_NS));
    // (LZ4 as inserted; ZSTD(1) once a background merge took the fresh parts together.)
    const withFresh = [...new Set(await parts())];
    expect(withFresh.filter((p) => !['fresh: LZ4', 'fresh: ZSTD(1)'].includes(p))).toEqual(['old: ZSTD(9)']);
    expect(withFresh.length).toBeGreaterThan(1);
    await store.close();
    store = open();
    await store.migrate();
    // (Over midnight the old rows' part of yesterday stays ZSTD(9) beside it.)
    const merged = await settled(['fresh: ZSTD(1)']);
    expect(merged.filter((p) => p !== 'old: ZSTD(9)')).toEqual(['fresh: ZSTD(1)']);
    const all = await read();
    expect(all).toHaveLength(300);
    expect(all.slice(0, 200)).toEqual(before);
  });
});
