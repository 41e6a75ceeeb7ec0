import { describe, expect, it } from 'vitest';
import { compile, type SqlFragment } from '../sql';
import { createDatapointRollups, fileSource } from './datapointRollups';

/**
 * A write of rows older than the watermark rolls them up from one read of its file (the answers:
 * metrics/datapointRollups.int.test.ts).
 */
describe('datapoint rollups: a late write', () => {
  it('reads its rows once for both rollups, and nothing more when no row is late', async () => {
    const statements: string[] = [];
    const W = 1_800_000_000;
    const run = async (q: SqlFragment): Promise<unknown[]> => {
      const { text, params } = compile(q);
      // The file paths are bound parameters.
      statements.push(`${text} ${JSON.stringify(params)}`);
      if (text.includes('ORDER BY seq DESC')) return [{ w: W, p: 0, seq: 3 }];
      if (text.includes('% 3600 AS s')) return [{ s: 0 }];
      return [];
    };
    const rollups = createDatapointRollups(run, { lateStage: '/tmp/lantern-late-rollup-test.native' });
    await rollups.load();
    const batch = '/tmp/lantern-late-batch.tsv';
    const reads = () => statements.filter((s) => s.includes(batch)).length;
    let inserts = 0;
    const insert = async () => {
      inserts++;
    };

    await rollups.write(insert, W + 60, () => fileSource(batch, 'TSV', false));
    expect([inserts, reads()]).toEqual([1, 0]);

    statements.length = 0;
    await rollups.write(insert, W - 600, () => fileSource(batch, 'TSV', false));
    expect(inserts).toBe(2);
    // One read of the batch's file (its 15-minute rollup, staged); both rollups are written.
    expect(reads()).toBe(1);
    expect(statements.filter((s) => /INSERT INTO "?datapoint_15m"?/.test(s))).toHaveLength(1);
    expect(statements.filter((s) => /INSERT INTO "?datapoint_hours"?/.test(s))).toHaveLength(1);
    // A batch of unknown age (a recovery) is rolled up the same way.
    statements.length = 0;
    await rollups.write(insert, null, () => fileSource(batch, 'TSV', false));
    expect(reads()).toBe(1);
  });
});
