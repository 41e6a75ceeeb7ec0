import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_METRICS_FROM_SPANS } from './metricsFromSpans';
import { ident, join, param, sql } from '../storage/sql';
import { openChdbStore } from '../storage/telemetry/chdbStore';
import { compileSpanMetrics, spanMetricPoints, spanMetricsModel } from './spanMetricPoints';
import { createSpanMetricWriter } from '../storage/telemetry/spanMetricWriter';
import type { SpanRow } from '../storage/telemetry/spanRow';
import type { TelemetryStore } from '../storage/telemetry/telemetryStore';
import { testSpanRow } from '../storage/telemetry/testSpanRow';

/** The batch writer of metrics from spans on the embedded engine: rows folded across requests, catalogue from memory. */
const T0 = 1_795_646_040n * 1_000_000_000n;

function row(projectId: number, statusCode: SpanRow['statusCode'] = 'ok'): SpanRow {
  return testSpanRow({ projectId, traceId: 'ef'.repeat(16), timeNs: T0, statusCode });
}

describe('span metric writer', () => {
  const dir = mkdtempSync(joinPath(tmpdir(), 'lantern-span-metric-writer-'));
  let store: TelemetryStore;
  beforeAll(async () => {
    store = openChdbStore({
      path: dir,
      ttl: { spansDays: 30, metricsDays: 90 },
      maxMemoryUsage: 2 * 1024 ** 3,
      maxThreads: 2,
      spanMetrics: null,
    });
    await store.migrate();
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes one row per series and minute of a batch, and the catalogue once per project and metric every 15 minutes', async () => {
    const metrics = compileSpanMetrics(DEFAULT_METRICS_FROM_SPANS);
    let now = 1_000_000;
    // The lines through a file, as the embedded store takes them.
    const insertTsv = async (_table: string, columns: readonly string[], text: string) => {
      const file = joinPath(store.stagingDir!, 'writer-test.tsv');
      writeFileSync(file, text);
      await store.query(
        sql`INSERT INTO datapoint_minutes (${join(
          columns.map((c) => sql`${ident(c)}`),
          ', ',
        )}) SELECT * FROM file(${param.string(file)}, 'TSV') SETTINGS use_structure_from_insertion_table_in_table_functions = 1`,
      );
    };
    const writer = createSpanMetricWriter(
      spanMetricsModel(DEFAULT_METRICS_FROM_SPANS)!,
      { insertRows: (t, rows) => store.insertRows(t, rows), insertTsv },
      () => now,
    );
    const request = (project: number, n: number, status: SpanRow['statusCode'] = 'ok') =>
      spanMetricPoints(
        metrics,
        Array.from({ length: n }, () => row(project, status)),
      );
    const rowsOf = async (project: number) =>
      store.query<{ n: string; c: string }>(
        sql`SELECT count() AS n, sum(count) AS c FROM datapoint_minutes FINAL WHERE project_id = ${param.uint32(project)}`,
      );
    // When each project's catalogue rows were last written (the table folds them: max(updated_at)).
    const catalogued = async () =>
      (
        await store.query<{ p: number; t: string }>(
          sql`SELECT project_id AS p, toUnixTimestamp(max(updated_at)) AS t FROM metrics_catalog WHERE project_id IN (21, 22) GROUP BY p ORDER BY p`,
        )
      ).map((r) => [r.p, Number(r.t)]);

    // Two requests of one series: one row; an error series: another.
    await writer.write([request(21, 3), request(21, 2), request(21, 1, 'error')]);
    expect(await rowsOf(21)).toEqual([{ n: '2', c: '6' }]);
    expect(await catalogued()).toEqual([[21, 1000]]);

    // Within 15 minutes the catalogue is not written again, but a new project's is.
    now += 14 * 60_000;
    await writer.write([request(21, 1), request(22, 1)]);
    expect(await catalogued()).toEqual([
      [21, 1000],
      [22, 1840],
    ]);

    now += 2 * 60_000;
    await writer.write([request(21, 1)]);
    expect(await catalogued()).toEqual([
      [21, 1960],
      [22, 1840],
    ]);
    expect((await rowsOf(21))[0].c).toBe('8');
  });
});
