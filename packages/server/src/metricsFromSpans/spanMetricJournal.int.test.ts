import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from '../storage/sql';
import { openChdbStore } from '../storage/telemetry/chdbStore';
import { completeBatches } from '../storage/telemetry/spanMetricJournal';
import type { TelemetryStore } from '../storage/telemetry/telemetryStore';
import { testSpanRow } from '../storage/telemetry/testSpanRow';
import { DEFAULT_METRICS_FROM_SPANS } from './metricsFromSpans';
import { spanMetricsModel } from './spanMetricPoints';

/**
 * The embedded store's journal of metrics from spans (spanMetricJournal.ts): a batch is journaled,
 * its points inserted before a read and at close, and segments a killed process left are inserted
 * at the next start. The kill -9 itself: ingest/durability.int.test.ts.
 */
const T0 = 1_795_646_040n * 1_000_000_000n;
const path = mkdtempSync(join(tmpdir(), 'lantern-span-metric-journal-'));
afterAll(() => rmSync(path, { recursive: true, force: true }));

describe('span metric journal', () => {
  const journal = join(path, 'span-metrics-journal');
  const segments = () => readdirSync(journal).filter((f) => f.endsWith('.tsv'));
  const open = () =>
    openChdbStore({
      path,
      ttl: { spansDays: 30, metricsDays: 90 },
      maxMemoryUsage: 2 * 1024 ** 3,
      maxThreads: 2,
      spanMetrics: spanMetricsModel(DEFAULT_METRICS_FROM_SPANS),
      spanMetricsFlushMs: 0,
    });
  const spans = (n: number) =>
    Array.from({ length: n }, (_, i) => testSpanRow({ projectId: 31, id: BigInt(i + 1), timeNs: T0 }));
  const total = async (s: TelemetryStore) =>
    Number(
      (
        await s.query<{ c: string }>(
          sql`SELECT sum(count) AS c FROM datapoint_minutes WHERE project_id = 31 AND metric = 'lantern.tracing.spans'`,
        )
      )[0].c,
    );

  it('journals each batch, inserts the folded points before a read and at close, and a left segment at start', async () => {
    const a = open();
    await a.migrate();
    await a.insertSpans(spans(3));
    await a.insertSpans(spans(2));
    // Acknowledged: both batches' lines in one segment, their points folded in memory.
    expect(segments()).toHaveLength(1);
    expect(
      completeBatches(readFileSync(join(journal, segments()[0]), 'utf8'))
        .trim()
        .split('\n'),
    ).toHaveLength(2);
    // A read of the datapoints inserts them first, and drops the segment.
    expect(await total(a)).toBe(5);
    expect(segments()).toEqual([]);

    await a.insertSpans(spans(4));
    // What a kill -9 now would leave: this segment, its points not inserted.
    const left = join(path, 'left.tsv');
    copyFileSync(join(journal, segments()[0]), left);
    await a.close(); // a clean stop inserts them
    expect(segments()).toEqual([]);
    // The kill came during the next batch's append: a torn batch after the whole one (never
    // acknowledged), left out at the next start.
    const torn = readFileSync(left, 'utf8');
    writeFileSync(join(journal, 'segment-0.tsv'), `${torn}${torn.slice(0, Math.floor(torn.length / 2))}`);

    const b = open();
    try {
      await b.migrate();
      expect(segments()).toEqual([]);
      // 5 + 4 inserted by a, and the left segment's 4 again by b's start (a was not killed here).
      expect(await total(b)).toBe(13);
      await b.insertSpans(spans(1));
      expect(segments()).toEqual(['segment-1.tsv']);
      expect(await total(b)).toBe(14);
    } finally {
      await b.close();
    }
  });
});

describe('completeBatches', () => {
  it('keeps the batches whose mark was written, without the marks', () => {
    expect(completeBatches('a\nb\n#batch-end\nc\n#batch-end\n')).toBe('a\nb\nc\n');
    expect(completeBatches('a\n#batch-end\nc\n#bat')).toBe('a\n');
    expect(completeBatches('a\n#batch-end\nc\td')).toBe('a\n');
    expect(completeBatches('a\nb')).toBe('');
    expect(completeBatches('')).toBe('');
    expect(completeBatches('#batch-end\n')).toBe('');
  });
});
