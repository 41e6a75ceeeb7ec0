import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openChdbStore } from '../../storage/telemetry';
import type { TelemetryStore } from '../../storage/telemetry';
import { testSpanRow } from '../../storage/telemetry/testSpanRow';
import { compileQuery } from '../query/compile';
import { createAttrDeltasService } from './attrDeltas.service';

/**
 * The sample of What changed (issue 38), on the embedded store in process: 3,000 spans of one
 * trace each, compared 200 a side at most, so both sides are sampled by trace id.
 */
const SPANS = 3000;
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
    }); // 150 of 2,700
  });
});
