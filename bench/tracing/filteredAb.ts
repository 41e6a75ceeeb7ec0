import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as current from '../../packages/server/src/tracing/query/service';
import type { RangeScope } from '../../packages/server/src/tracing/query/scope';
import { DEFAULT_QUERY, FILTERS } from './filteredCases';
import { openBenchStore } from './benchStore';

/**
 * Filtered queries over 24 h in-process (issue 17, item 5): the query service of an older copy of
 * `packages/server/src` (`--baseline DIR`, e.g.
 * `mkdir -p bench/results/base && git archive <rev> packages/server/src | tar -x -C bench/results/base`)
 * and the current one take turns on the same store, case by case, so the ratio holds on a busy
 * machine. Both answers are compared: the same groups, counts and series; percentiles within 5%
 * (t-digests merged from rollup states against one digest of the spans).
 *
 *   node --import tsx bench/tracing/filteredAb.ts --data-dir /tmp/s13f/data --baseline bench/results/base [--rounds 5] [--only host]
 *
 * `--only TEXT` keeps the cases whose name holds it (`, host`, `timeseries`, `unfiltered`).
 *
 * The data directory must hold a `bench/tracing` data set and not be in use by a server; the
 * current code's migrations are applied first (the baseline reads the tables it knows).
 */
const { values: args } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    rounds: { type: 'string', default: '5' },
    baseline: { type: 'string' },
    only: { type: 'string' },
  },
});
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DATA_DIR = args['data-dir'] ?? join(ROOT, 'bench/results/tracing-data');
const { endMs } = JSON.parse(readFileSync(join(DATA_DIR, 'bench-tracing.json'), 'utf8')) as { endMs: number };

type Service = ReturnType<typeof current.createQueryService>;
const store = openBenchStore(DATA_DIR);
const t0 = performance.now();
await store.migrate();
console.log(`migrations applied in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const variants: [string, Service][] = [['current', current.createQueryService(store)]];
if (args.baseline) {
  const mod = (await import(
    join(resolve(args.baseline), 'packages/server/src/tracing/query/service.ts')
  )) as typeof current;
  variants.unshift(['baseline', mod.createQueryService(store)]);
}

const scope = (systems: string[], hours = 24): RangeScope => ({
  projectId: 1,
  gte: new Date(endMs - hours * 3600_000),
  lt: new Date(endMs),
  systems,
});
const cases: [string, (s: Service) => Promise<unknown>][] = [];
for (const [label, where] of FILTERS)
  for (const [sysLabel, systems] of [
    ['all', []],
    ['http:all', ['http:all']],
  ] as const) {
    const at = `${sysLabel}, ${label}`;
    const sc = scope([...systems]);
    cases.push(
      [`groups (${at})`, async (s) => (await s.groups(sc, `${DEFAULT_QUERY} | ${where}`, { limit: 1000 })).answer],
      [`spans (${at})`, (s) => s.spanPage(sc, where, { sortBy: '.duration', sortDesc: true, page: 1, limit: 10 })],
      [`timeseries (${at})`, (s) => s.timeseries(sc, `${DEFAULT_QUERY} | ${where}`)],
    );
  }
// The default query's time series without a filter, as run.ts asks it (1 h, http:all) and over 24 h.
cases.push(
  ['timeseries (1h http:all, unfiltered)', (s) => s.timeseries(scope(['http:all'], 1), DEFAULT_QUERY)],
  ['timeseries (all, unfiltered)', (s) => s.timeseries(scope([]), DEFAULT_QUERY)],
  ['timeseries (http:all, unfiltered)', (s) => s.timeseries(scope(['http:all']), DEFAULT_QUERY)],
);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const PCT = /^p\d\d\(/;

/** Differences between two answers: exact but for percentiles (5%). */
function diff(a: unknown, b: unknown, path = ''): string[] {
  if (typeof a === 'number' && typeof b === 'number') {
    const tol = PCT.test(path.split('.').at(-1) ?? '') || /p\d\d\(/.test(path) ? 0.05 : 1e-9;
    return Math.abs(a - b) <= tol * Math.max(Math.abs(a), Math.abs(b)) ? [] : [`${path}: ${a} != ${b}`];
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return [`${path}: length ${a.length} != ${b.length}`];
    return a.flatMap((x, i) => diff(x, b[i], `${path}[${i}]`));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) =>
      diff((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`),
    );
  }
  return a === b ? [] : [`${path}: ${JSON.stringify(a)} != ${JSON.stringify(b)}`];
}

/**
 * Groups in a stable order (ties of the sort column may come in any order). A time series answer
 * keeps 100 series by total: the baseline cut ties at the 100th in whatever order rows came, so
 * series whose total equals the cut's are left out of the comparison (counted in `tiedAtCut`).
 */
function normal(answer: unknown): unknown {
  const a = answer as { groups?: Record<string, unknown>[]; time?: unknown };
  if (!a.groups) return answer;
  let groups = [...a.groups].sort((x, y) => (String(x._id) < String(y._id) ? -1 : 1));
  let tiedAtCut = 0;
  if (a.time && groups.length === 100) {
    const total = (g: Record<string, unknown>) =>
      ((g['.count_per_min'] as number[]) ?? []).reduce((x, y) => x + (y ?? 0), 0);
    const cut = Math.min(...groups.map(total));
    tiedAtCut = groups.filter((g) => total(g) === cut).length;
    groups = groups.filter((g) => total(g) !== cut);
  }
  return { ...a, groups, tiedAtCut: tiedAtCut ? 'some' : 'none' };
}

console.log(`load ${loadavg()[0].toFixed(1)}; ${args.rounds} rounds a case, variants alternating`);
for (const [name, run] of cases) {
  if (args.only && !name.includes(args.only)) continue;
  const ms = new Map(variants.map(([v]) => [v, [] as number[]]));
  const answers = new Map<string, unknown>();
  for (const [, s] of variants) await run(s); // warm-up
  for (let r = 0; r < Number(args.rounds); r++) {
    const order = r % 2 ? [...variants].reverse() : variants;
    for (const [v, s] of order) {
      const t = performance.now();
      answers.set(v, await run(s));
      ms.get(v)!.push(performance.now() - t);
    }
  }
  const cells = variants.map(([v]) => `${v} ${median(ms.get(v)!).toFixed(0).padStart(5)} ms`);
  let check = '';
  if (variants.length === 2) {
    const d = diff(normal(answers.get('baseline')), normal(answers.get('current')));
    const ratio = median(ms.get('current')!) / median(ms.get('baseline')!);
    check = `  ${ratio.toFixed(2)}  ${d.length ? `DIFFERENT: ${d.slice(0, 3).join('; ')}` : 'same answer'}`;
  }
  console.log(`${name.padEnd(32)} ${cells.join('  ')}${check}  (load ${loadavg()[0].toFixed(1)})`);
}
await store.close();
