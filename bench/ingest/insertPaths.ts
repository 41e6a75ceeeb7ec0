import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { normalizeTraces } from '../../packages/server/src/ingest/normalize';
import { decodeTracesProto } from '../../packages/server/src/ingest/otlp';
import type { SqlFragment } from '../../packages/server/src/storage/sql';
import { openChdbStore } from '../../packages/server/src/storage/telemetry';
import {
  encodeSpans,
  SPANS_DATA_COLUMNS,
  SPANS_INDEX_COLUMNS,
} from '../../packages/server/src/storage/telemetry/spanRowEncoding';
import { buildRequestPool } from './requestPool';

/**
 * Two questions about the engine's share of a span (issue 39 part 2), answered on the bench's rows
 * (20,000 a batch, encoded as the server does) in a fresh embedded store, merges stopped so that
 * only the inserts are timed; process CPU per row, in turns within one process.
 *
 * - `--mode formats`: the same batch inserted from a TSV file (what the server stages), from
 *   RowBinary and from Native (both made from the TSV by the engine), the views dropped: what
 *   parsing the text costs.
 * - `--mode views`: inserts with the six views on spans_index, inserts without them, and a job that
 *   runs each view's SELECT once over the parts those inserts made (what "the rollups built from
 *   committed spans, not by views on every insert" would spend reading the spans back).
 *
 *   With `--merges` (views mode) merges run, and each figure includes waiting for them to settle:
 *   the view tables' parts are merged too (one part per insert and view, against one per job).
 *
 *   node --import tsx bench/ingest/insertPaths.ts --mode formats|views [--merges] [--tables both|index|data] [--rounds 4] [--batches 8]
 */
const { values: args } = parseArgs({
  options: {
    mode: { type: 'string', default: 'views' },
    rounds: { type: 'string', default: '4' },
    batches: { type: 'string', default: '8' },
    merges: { type: 'boolean', default: false },
    tables: { type: 'string', default: 'both' },
  },
});
if (!['formats', 'views'].includes(args.mode)) throw new Error('--mode is formats or views');
const ROWS = 20_000;
const rounds = Number(args.rounds);
const batches = Number(args.batches);
const VIEWS = [
  'span_groups_1m_mv',
  'span_groups_1h_mv',
  'span_attr_groups_15m_mv',
  'error_arrivals_mv',
  'span_arrivals_mv',
  'spans_sample_mv',
];
const raw = (text: string): SqlFragment => ({ kind: 'fragment', parts: [text], values: [] });
const list = (names: readonly string[]) => `'${names.join("', '")}'`;

const pool = buildRequestPool({ requests: 32, spansPerRequest: 1000, seed: 1 });
const project = { projectId: 1, groupByEnv: false, groupFuncsByService: false };
const encoded = encodeSpans(pool.bodies.flatMap((b) => normalizeTraces(decodeTracesProto(b), project)).slice(0, ROWS));
const dir = mkdtempSync(join(tmpdir(), 'lantern-insert-paths-'));
writeFileSync(join(dir, 'index.tsv'), encoded.index);
writeFileSync(join(dir, 'data.tsv'), encoded.data);
const store = openChdbStore({
  path: join(dir, 'db'),
  ttl: { spansDays: 30, metricsDays: 90 },
  maxMemoryUsage: 4 * 1024 ** 3,
  maxThreads: 2,
  spanMetrics: null,
});
const q = <T>(text: string) => store.query<T>(raw(text));
const cpu = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};
/** Waits until no merge has run for 3 s (only with --merges). */
const settle = async () => {
  for (let idle = 0; args.merges && idle < 6;) {
    await new Promise((r) => setTimeout(r, 500));
    const [{ n }] = await q<{ n: string }>('SELECT count() AS n FROM system.merges');
    idle = Number(n) === 0 ? idle + 1 : 0;
  }
};
/** CPU µs a row of `batches` runs of `f` (after one untimed run when `warm`), and of `then`, merges settled. */
const timed = async (f: () => Promise<void>, warm = true, then = async () => {}) => {
  if (warm) await f();
  await settle();
  const t0 = cpu();
  for (let i = 0; i < batches; i++) await f();
  await then();
  await settle();
  return (cpu() - t0) / (batches * ROWS);
};
/** Inserts `<table>.<ext>` of both tables. */
const TABLES = (
  [
    ['spans_data', SPANS_DATA_COLUMNS],
    ['spans_index', SPANS_INDEX_COLUMNS],
  ] as const
).filter(([t]) => args.tables === 'both' || t === `spans_${args.tables}`);
if (TABLES.length === 0) throw new Error('--tables is both, data or index');
const insert = (ext: string, format: string) => async () => {
  for (const [table, columns] of TABLES)
    await q(
      `INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM file('${dir}/${table.slice(6)}${ext.startsWith('-') ? '' : '.'}${ext}', '${format}')
        SETTINGS use_structure_from_insertion_table_in_table_functions = 1`,
    );
};
const fmt = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(' / ');

try {
  await store.migrate();
  if (!args.merges || args.mode === 'formats') await q('SYSTEM STOP MERGES');
  if (args.mode === 'formats') {
    for (const v of VIEWS) await q(`DROP VIEW ${v}`);
    for (const [table, columns] of TABLES) {
      const types = new Map(
        (await q<{ name: string; type: string }>(`SELECT name, type FROM system.columns WHERE table = '${table}'`)).map(
          (c) => [c.name, c.type],
        ),
      );
      const structure = columns
        .map((c) => `${c} ${types.get(c)}`)
        .join(', ')
        .replace(/'/g, "\\'");
      for (const format of ['RowBinary', 'Native'])
        await q(
          `INSERT INTO FUNCTION file('${dir}/${table.slice(6)}.${format}', '${format}', '${structure}')
            SELECT * FROM file('${dir}/${table.slice(6)}.tsv', 'TSV', '${structure}')`,
        );
    }
    const out: Record<string, number[]> = { TSV: [], RowBinary: [], Native: [] };
    for (let r = 0; r < rounds; r++)
      for (const format of Object.keys(out))
        out[format].push(await timed(insert(format === 'TSV' ? 'tsv' : format, format === 'TSV' ? 'TSV' : format)));
    for (const [format, xs] of Object.entries(out))
      console.log(
        `${format.padEnd(10)} ${fmt(xs)} µs a row (${args.tables === 'both' ? 'both tables' : `spans_${args.tables}`}, no views, merges stopped)`,
      );
  } else {
    const views = await q<{ name: string; create: string; select: string }>(
      `SELECT name, create_table_query AS create, as_select AS select FROM system.tables
        WHERE database = currentDatabase() AND name IN (${list(VIEWS)})`,
    );
    if (views.length !== VIEWS.length) throw new Error(`found ${views.length} of the ${VIEWS.length} views`);
    const withViews: number[] = [];
    const without: number[] = [];
    const job: number[] = [];
    // Each round's inserts without views go in as their own project, so the job finds them by it.
    const asProject = (p: number) => {
      for (const t of ['index', 'data'] as const)
        writeFileSync(join(dir, `${t}-${p}.tsv`), encoded[t].toString().replace(/^1\t/gm, `${p}\t`));
      return insert(`-${p}.tsv`, 'TSV');
    };
    const runViews = async (p: number) => {
      for (const v of views) {
        const target = /\bTO (\S+)/.exec(v.create)![1];
        const from = `(SELECT * FROM spans_index WHERE project_id = ${p})`;
        await q(`INSERT INTO ${target} ${v.select.replace(/FROM (\S+\.)?spans_index\b/, `FROM ${from}`)}`);
      }
    };
    const targets = views.map((v) => /\bTO (\S+)/.exec(v.create)![1]);
    // Every phase starts from empty tables, so merges in it are of its own rows only.
    const empty = async () => {
      for (const t of ['spans_index', 'spans_data', ...targets]) await q(`TRUNCATE TABLE ${t}`);
    };
    const withPhase = async () => {
      await empty();
      withViews.push(await timed(insert('tsv', 'TSV')));
    };
    const jobPhase = async (p: number) => {
      await empty();
      for (const v of VIEWS) await q(`DROP VIEW ${v}`);
      const insertAs = asProject(p);
      if (args.merges) job.push(await timed(insertAs, false, () => runViews(p)));
      else {
        without.push(await timed(insertAs, false));
        const t0 = cpu();
        await runViews(p);
        job.push((cpu() - t0) / (batches * ROWS));
      }
      for (const v of views) await q(v.create);
    };
    for (let r = 0; r < rounds; r++) {
      // Alternated, so that neither phase always runs second.
      if (r % 2 === 0) {
        await withPhase();
        await jobPhase(r + 2);
      } else {
        await jobPhase(r + 2);
        await withPhase();
      }
    }
    console.log(`inserts with the six views     ${fmt(withViews)} µs a row${args.merges ? ', merges settled' : ''}`);
    if (args.merges) console.log(`inserts without, then the job  ${fmt(job)} µs a row, merges settled`);
    else {
      console.log(`inserts without them           ${fmt(without)} µs a row`);
      console.log(`their SELECTs once, afterwards ${fmt(job)} µs a row`);
    }
  }
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
