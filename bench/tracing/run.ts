import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { signIn, startLantern } from '@lantern/testkit/harness';
import { sql } from '../../packages/server/src/storage/sql';
import { openChdbStore } from '../../packages/server/src/storage/telemetry';
import { bigTraceStatements, generationStatements } from './generate';
import { pct, tracingCaller } from './benchCalls';
import { DEFAULT_QUERY as DEFAULT, FILTERS } from './filteredCases';
import { DEFAULT_METRICS_FROM_SPANS, spanMetricsModel } from '../../packages/server/src/metricsFromSpans';

/**
 * `bench/tracing`: loads N generated spans (default 10M over 24 h) straight into the embedded
 * store, then starts the real server on that data directory and measures the tracing endpoints
 * over HTTP with a signed-in session (p50/p95 of `--runs` requests after a warm-up each).
 *
 *   node --import tsx bench/tracing/run.ts [--spans 10000000] [--runs 15] [--warmup 3] [--data-dir bench/results/tracing-data]
 *     [--only trace] [--check-answers] [--rich-trace] [--save-answers answers.json] [--server DIR/packages/server/src/main.ts]
 *
 * The data directory is reused when it already holds the spans (loading is skipped). `--only` keeps
 * the cases whose name contains the text. The server runs as in production, without the test kit's
 * answer checks (a parse of every answer by its contract: on a 10,000-span trace that is a third of
 * the time); `--check-answers` turns them back on.
 */
const { values: args } = parseArgs({
  options: {
    spans: { type: 'string', default: '10000000' },
    runs: { type: 'string', default: '15' },
    /** Requests per case before measuring: the first ones after a start read cold files. */
    warmup: { type: 'string', default: '3' },
    chunk: { type: 'string', default: '1000000' },
    'trace-spans': { type: 'string', default: '1000' },
    'data-dir': { type: 'string' },
    json: { type: 'string' },
    only: { type: 'string' },
    /** The big trace's spans carry 20 attributes each instead of 2 (generate.ts, RICH_ATTRS). */
    'rich-trace': { type: 'boolean', default: false },
    'check-answers': { type: 'boolean', default: false },
    /** Writes each measured case's last answer to this JSON file (to compare two versions' answers). */
    'save-answers': { type: 'string' },
    /** The server's main module: another version's copy (`git archive <rev> package.json packages/server`). */
    server: { type: 'string' },
  },
});
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SPANS = Number(args.spans);
const RUNS = Number(args.runs);
const DATA_DIR = args['data-dir'] ?? join(ROOT, 'bench/results/tracing-data');
const TRACE_HEX = 'b1'.repeat(16);
const MARKER = join(DATA_DIR, 'bench-tracing.json');

async function load(): Promise<{ endMs: number }> {
  if (existsSync(MARKER)) {
    const m = JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(MARKER, 'utf8'))) as {
      spans: number;
      endMs: number;
      richTrace?: boolean;
    };
    if (m.spans === SPANS && Boolean(m.richTrace) === args['rich-trace']) {
      console.log(`reusing ${SPANS} spans in ${DATA_DIR}`);
      return { endMs: m.endMs };
    }
    throw new Error(
      `${DATA_DIR} holds ${m.spans} spans${m.richTrace ? ' and a rich trace' : ''}; use another --data-dir`,
    );
  }
  mkdirSync(DATA_DIR, { recursive: true });
  const store = openChdbStore({
    path: join(DATA_DIR, 'ch'),
    ttl: { spansDays: 30, metricsDays: 30 },
    maxMemoryUsage: 4 * 1024 ** 3,
    maxThreads: 2,
    spanMetrics: spanMetricsModel(DEFAULT_METRICS_FROM_SPANS),
  });
  await store.migrate();
  const endMs = Math.floor(Date.now() / 60_000) * 60_000;
  const t0 = performance.now();
  const statements = generationStatements({
    spans: SPANS,
    endMs,
    rangeMs: 24 * 3600_000,
    chunk: Number(args.chunk),
    projectId: 1,
  });
  for (const [i, s] of statements.entries()) {
    await store.query(s);
    if (i % 2 === 1)
      console.log(
        `  loaded ${Math.min(SPANS, ((i + 1) / 2) * Number(args.chunk))} spans, ${((performance.now() - t0) / 1000).toFixed(0)} s`,
      );
  }
  for (const s of bigTraceStatements({
    spans: Number(args['trace-spans']),
    traceHex: TRACE_HEX,
    rich: args['rich-trace'],
    startMs: endMs - 30 * 60_000,
    projectId: 1,
  }))
    await store.query(s);
  const loadSec = (performance.now() - t0) / 1000;
  await store.query(sql`OPTIMIZE TABLE spans_index FINAL`);
  const [parts] = await store.query<{ rows: string; bytes: string }>(
    sql`SELECT sum(rows) AS rows, sum(bytes_on_disk) AS bytes FROM system.parts WHERE active AND table IN ('spans_index', 'spans_data')`,
  );
  await store.close();
  console.log(
    `loaded ${SPANS} spans in ${loadSec.toFixed(0)} s (+ merge); ${parts.rows} rows, ${(Number(parts.bytes) / 1e9).toFixed(2)} GB on disk`,
  );
  writeFileSync(MARKER, JSON.stringify({ spans: SPANS, endMs, loadSec, richTrace: args['rich-trace'] }));
  return { endMs };
}

/**
 * Filtered queries over 24 h (issue 17, item 5): groups, a spans page and timeseries with a `where`
 * on a column attribute (service, host, environment) or an attribute of the arrays (`http.route`,
 * `enduser.id`), over all systems and over `http:all`. Names start with `filtered` for `--only`.
 */
function filteredCases(range: Record<string, string>): [string, string, Record<string, string>][] {
  const out: [string, string, Record<string, string>][] = [];
  for (const [label, where] of FILTERS)
    for (const [sysLabel, sys] of [
      ['all', {}],
      ['http:all', { 'system[]': 'http:all' }],
    ] as const) {
      const at = `24h, ${sysLabel}, ${label}`;
      out.push(
        [`filtered groups (${at})`, 'groups', { ...range, ...sys, query: `${DEFAULT} | ${where}` }],
        [
          `filtered spans (${at})`,
          'spans',
          { ...range, ...sys, query: where, sort_by: '.duration', sort_desc: 'true', limit: '10' },
        ],
        [`filtered timeseries (${at})`, 'timeseries', { ...range, ...sys, query: `${DEFAULT} | ${where}` }],
      );
    }
  return out;
}

async function main() {
  const { endMs } = await load();
  const lantern = await startLantern({
    dataDir: DATA_DIR,
    env: { LANTERN_LOG_LEVEL: 'error', LANTERN_CHECK_ANSWERS: args['check-answers'] ? '1' : '0' },
    ...(args.server ? { serverMain: args.server } : {}),
  });
  try {
    const cookie = await signIn(lantern.baseUrl);
    const range = (hours: number) => ({
      time_gte: new Date(endMs - hours * 3600_000).toISOString(),
      time_lt: new Date(endMs).toISOString(),
    });
    const call = tracingCaller(lantern.baseUrl, cookie);
    const groups = (await call('groups', { ...range(1), 'system[]': 'http:all', query: DEFAULT })) as {
      groups: { '.group_id': string }[];
    };
    const groupId = groups.groups[0]['.group_id'];
    const cases: [string, string, Record<string, string>][] = [
      ['systems (1h)', 'systems', range(1)],
      ['systems (24h)', 'systems', range(24)],
      ['groups default (1h, all)', 'groups', { ...range(1), query: DEFAULT }],
      ['groups default (24h, all)', 'groups', { ...range(24), query: DEFAULT }],
      ['groups default (24h, http:all)', 'groups', { ...range(24), 'system[]': 'http:all', query: DEFAULT }],
      [
        'spans page (1h, .duration desc)',
        'spans',
        { ...range(1), 'system[]': 'http:all', sort_by: '.duration', sort_desc: 'true', limit: '10' },
      ],
      [
        'spans page (1h, one group)',
        'spans',
        { ...range(1), query: `where .group_id = ${groupId}`, sort_by: '.duration', sort_desc: 'true', limit: '10' },
      ],
      ['percentiles (1h, one group)', 'percentiles', { ...range(1), 'system[]': 'http:all', group_id: groupId }],
      ['percentiles (24h, http:all)', 'percentiles', { ...range(24), 'system[]': 'http:all' }],
      ['timeseries (1h, default)', 'timeseries', { ...range(1), 'system[]': 'http:all', query: DEFAULT }],
      [`trace (${args['trace-spans']} spans)`, `traces/${TRACE_HEX}`, {}],
      ...filteredCases(range(24)),
    ];
    // Sanity: the generated data answers like real data would.
    const page = (await call('spans', cases[5][2])) as { spans: unknown[]; count: number };
    const tree = (await call(`traces/${TRACE_HEX}`, {})) as { numSpan: number };
    if (page.spans.length !== 10 || tree.numSpan !== Number(args['trace-spans']))
      throw new Error(`bad data: ${page.spans.length} spans on a page, trace of ${tree.numSpan}`);
    console.log(`spans in the last hour (http:all): ${page.count}; groups (1h, http:all): ${groups.groups.length}`);
    const results: { name: string; p50: number; p95: number; max: number }[] = [];
    const answers: Record<string, unknown> = {};
    for (const [name, path, params] of cases) {
      if (args.only && !name.includes(args.only)) continue;
      for (let i = 0; i < Number(args.warmup); i++) await call(path, params);
      const ms: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        answers[name] = await call(path, params);
        ms.push(performance.now() - t);
      }
      ms.sort((a, b) => a - b);
      results.push({ name, p50: pct(ms, 50), p95: pct(ms, 95), max: ms[ms.length - 1] });
      console.log(
        `${name.padEnd(36)} p50 ${pct(ms, 50).toFixed(0).padStart(6)} ms   p95 ${pct(ms, 95).toFixed(0).padStart(6)} ms`,
      );
    }
    if (args['save-answers']) writeFileSync(args['save-answers'], JSON.stringify(answers, null, 1));
    if (args.json)
      writeFileSync(
        args.json,
        JSON.stringify(
          { spans: SPANS, runs: RUNS, warmup: Number(args.warmup), checkAnswers: args['check-answers'], results },
          null,
          2,
        ),
      );
  } finally {
    await lantern.stop();
  }
}

await main();
