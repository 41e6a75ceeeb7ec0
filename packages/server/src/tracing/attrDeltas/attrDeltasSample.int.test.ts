import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { param, sql } from '../../storage/sql';
import { openChdbStore, SPAN_SAMPLE_K, SPAN_SAMPLE_SCALE } from '../../storage/telemetry';
import type { TelemetryStore } from '../../storage/telemetry';
import { testSpanRow } from '../../storage/telemetry/testSpanRow';
import { compileQuery } from '../query/compile';
import { createAttrDeltasService } from './attrDeltas.service';

/**
 * The sample of What changed (issue 38), on the embedded store in process: 20,000 spans of one
 * trace each, compared 200 a side at most, so both sides are sampled by trace id; and the same
 * sample read from spans_sample (telemetry migration 18: every row of 2 % of traces, ~400 here).
 */
const SPANS = 20_000;
const dir = mkdtempSync(join(tmpdir(), 'lantern-attr-deltas-'));
let store: TelemetryStore;
const now = Date.now();

beforeAll(async () => {
  const limits = { maxMemoryUsage: 2e9, maxThreads: 2, rollupIntervalMs: 0 };
  store = openChdbStore({ path: join(dir, 'ch'), ttl: { spansDays: 30, metricsDays: 30 }, ...limits });
  await store.migrate();
  // Every 10th span is slow; 90 % of the slow ones and 5.6 % of the others have the new cart.
  const rows = Array.from({ length: SPANS }, (_, i) => {
    const slow = i % 10 === 0;
    const k = Math.floor(i / 10);
    return testSpanRow({
      traceId: createHash('md5').update(`trace ${i}`).digest('hex'),
      id: BigInt(i + 1),
      timeNs: BigInt(now - 60_000 + i) * 1_000_000n,
      durationNs: slow ? 900_000_000 : 10_000_000,
      attrs: { 'service.name': 'api', 'feature.flag': (slow ? k % 10 !== 9 : i % 20 === 1) ? 'new-cart' : 'old-cart' },
    });
  });
  await store.insertSpans(rows);
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('attr-deltas sample', () => {
  it('compares a sample of each side by trace id, the same on every request, with shares near the whole', async () => {
    const service = createAttrDeltasService(store, { sampleSpans: 200 });
    const scope = { projectId: 1, gte: new Date(now - 3_600_000), lt: new Date(now), systems: [] };
    const q = compileQuery('', 'filters', { minutes: 60 });
    const sel = compileQuery('where .duration > 500ms', 'filters', { minutes: 60 });
    const a = await service.attrDeltas(scope, q, sel, new Set(['.duration']));
    expect(a.selection.count).toBe(SPANS / 10);
    expect(a.baseline.count).toBe(SPANS - SPANS / 10);
    // About 200 a side (binomial spread), fewer than all.
    for (const side of [a.selection, a.baseline]) {
      expect(side.sampled).toBeGreaterThan(140);
      expect(side.sampled).toBeLessThan(260);
    }
    expect(a.attrs[0].key).toBe('feature.flag');
    const newCart = a.attrs[0].values.find((v) => v.value === 'new-cart')!;
    expect(newCart.selectionPct).toBeGreaterThan(80);
    expect(newCart.baselinePct).toBeLessThan(12);
    // Deterministic: the same traces on every request.
    expect(await service.attrDeltas(scope, q, sel, new Set(['.duration']))).toEqual(a);
    // Without the sample every span is compared, and the shares are exact.
    const all = await createAttrDeltasService(store).attrDeltas(scope, q, sel, new Set(['.duration']));
    expect(all.selection.sampled).toBe(SPANS / 10);
    expect(all.attrs[0].values.find((v) => v.value === 'new-cart')).toMatchObject({
      selectionPct: 90,
      baselinePct: 5.56,
    }); // 1,000 of 18,000
  });

  const scope = () => ({ projectId: 1, gte: new Date(now - 3_600_000), lt: new Date(now), systems: [] });
  const q = compileQuery('', 'filters', { minutes: 60 });
  const sel = compileQuery('where .duration > 500ms', 'filters', { minutes: 60 });
  const tested = new Set(['.duration']);

  it('keeps every row of the traces below the hash bound in spans_sample, with the columns of spans_index', async () => {
    const inSample = sql`cityHash64(trace_id) % ${param.uint32(SPAN_SAMPLE_SCALE)} < ${param.uint32(SPAN_SAMPLE_K)}`;
    const [index] = await store.query<{ n: string }>(sql`SELECT toString(countIf(${inSample})) AS n FROM spans_index`);
    const [sample] = await store.query<{ n: string; out: string }>(
      sql`SELECT toString(count()) AS n, toString(countIf(NOT ${inSample})) AS out FROM spans_sample`,
    );
    expect(Number(sample.n)).toBe(Number(index.n));
    expect(Number(sample.n)).toBeGreaterThan(SPANS * 0.015);
    expect(Number(sample.n)).toBeLessThan(SPANS * 0.025);
    expect(sample.out).toBe('0');
    // The query language's filters run on both tables: a column added to spans_index is added there.
    const columns = (table: string) =>
      store.query<{ name: string; type: string }>(
        sql`SELECT name, type FROM system.columns WHERE database = currentDatabase() AND table = ${param.string(table)} ORDER BY name`,
      );
    expect(await columns('spans_sample')).toEqual(await columns('spans_index'));
  });

  it('answers from spans_sample exactly what the same sample of spans_index answers', async () => {
    // 30 a side: both rates (1.5 % and 0.17 %) are within the table's 2 %, so it holds every sampled trace.
    const fromSample = await createAttrDeltasService(store, { sampleSpans: 30, tableMinSpans: 1 }).attrDeltas(
      scope(),
      q,
      sel,
      tested,
    );
    const fromIndex = await createAttrDeltasService(store, { sampleSpans: 30, sampleTable: false }).attrDeltas(
      scope(),
      q,
      sel,
      tested,
    );
    expect(fromSample).toEqual(fromIndex);
    expect(fromSample.selection.sampled).toBeGreaterThan(10);
    expect(fromSample.attrs[0].key).toBe('feature.flag');
  });

  it('compares a side whose rate is above the table 2 % over its 2 %, ranking the same key first', async () => {
    // 200 a side: the selection (2,000 spans) would be sampled at 10 %; the table holds its 2 %.
    const [slow] = await store.query<{ n: string }>(
      sql`SELECT toString(countIf(duration > 500000000)) AS n FROM spans_sample`,
    );
    const a = await createAttrDeltasService(store, { sampleSpans: 200, tableMinSpans: 20 }).attrDeltas(
      scope(),
      q,
      sel,
      tested,
    );
    expect(a.selection).toEqual({ count: SPANS / 10, sampled: Number(slow.n) });
    expect(a.selection.sampled).toBeLessThan(100);
    expect(a.baseline.count).toBe(SPANS - SPANS / 10);
    expect(a.attrs[0].key).toBe('feature.flag');
    const newCart = a.attrs[0].values.find((v) => v.value === 'new-cart')!;
    expect(newCart.selectionPct).toBeGreaterThan(70);
    expect(newCart.baselinePct).toBeLessThan(15);
    // Below the table's minimum the side is read from spans_index (about 200 sampled).
    const b = await createAttrDeltasService(store, { sampleSpans: 200, tableMinSpans: 1000 }).attrDeltas(
      scope(),
      q,
      sel,
      tested,
    );
    expect(b.selection.sampled).toBeGreaterThan(140);
  });
});
