import { describe, expect, it } from 'vitest';
import { clusterStatements } from './cluster';
import { freshSchema } from './migrate';

/**
 * Golden test of the cluster DDL (`storage.ch.cluster`): every statement a fresh database gets, in
 * its cluster form, as `lantern schema print --cluster lantern` prints it. `__golden__/cluster.sql`
 * is reviewed by hand; a new migration shows up there as a diff.
 */
const TTL = { spansDays: 30, metricsDays: 90 };

describe('cluster DDL', () => {
  it('matches the reviewed golden file', async () => {
    const ddl = freshSchema(TTL, 'lantern');
    await expect(ddl.join(';\n\n') + ';\n').toMatchFileSnapshot('./__golden__/cluster.sql');
  });

  it('makes every table local + replicated with a Distributed table of the same name over it', () => {
    const ddl = freshSchema(TTL, 'lantern');
    const created = ddl.filter((s) => s.startsWith('CREATE TABLE'));
    const locals = created.filter((s) => /_local ON CLUSTER lantern \(/.test(s));
    expect(locals.length).toBeGreaterThan(0);
    for (const l of locals)
      expect(l).toMatch(
        /ENGINE = Replicated\w*MergeTree\('\/clickhouse\/tables\/\{shard\}\/\{database\}\/\w+_local', '\{replica\}'/,
      );
    expect(created.length).toBe(locals.length * 2);
    expect(
      ddl.filter((s) =>
        s.includes('ENGINE = Distributed(lantern, currentDatabase(), spans_index_local, cityHash64(trace_id))'),
      ),
    ).toHaveLength(1);
    // Views read and write their node's local tables; nothing reads a Distributed table in a view.
    for (const v of ddl.filter((s) => s.startsWith('CREATE MATERIALIZED VIEW'))) {
      expect(v).toMatch(/ ON CLUSTER lantern TO \w+_local AS/);
      expect(v).not.toMatch(/\bFROM (spans_index|datapoint_minutes)\b(?!_local)/);
    }
    // Every statement but the backfills is ON CLUSTER.
    for (const s of ddl.filter((x) => !x.startsWith('INSERT'))) expect(s).toContain('ON CLUSTER lantern');
  });

  it('keeps the embedded DDL as it is without a cluster', () => {
    const ddl = freshSchema(TTL);
    expect(ddl.some((s) => s.includes('ON CLUSTER') || s.includes('Replicated') || s.includes('_local'))).toBe(false);
  });

  it('alters the Distributed table too for column changes, without codecs', () => {
    expect(clusterStatements('ALTER TABLE spans_index MODIFY COLUMN kind String CODEC(LZ4)', 'c1')).toEqual([
      'ALTER TABLE spans_index_local ON CLUSTER c1 MODIFY COLUMN kind String CODEC(LZ4)',
      'ALTER TABLE spans_index ON CLUSTER c1 MODIFY COLUMN kind String',
    ]);
    expect(clusterStatements('ALTER TABLE spans_data MODIFY SETTING merge_selector_base = 20', 'c1')).toEqual([
      'ALTER TABLE spans_data_local ON CLUSTER c1 MODIFY SETTING merge_selector_base = 20',
    ]);
  });

  it('refuses a statement it has no cluster form for, and a bad cluster name', () => {
    expect(() => clusterStatements('RENAME TABLE a TO b', 'c1')).toThrow(/no cluster form/);
    expect(() => clusterStatements('DROP VIEW IF EXISTS v', 'c1; DROP')).toThrow(/not a cluster name/);
  });
});
