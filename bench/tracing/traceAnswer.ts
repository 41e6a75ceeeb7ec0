import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import * as currentStore from '../../packages/server/src/tracing/tracing.store';
import * as currentTree from '../../packages/server/src/tracing/traceTree';
import { openBenchStore } from './benchStore';

/**
 * The trace endpoint's work in-process, stage by stage (read the rows through the tracing store,
 * build the tree, JSON.stringify the answer), on the big trace of a `bench/tracing` data set. With
 * `--baseline DIR` (a copy of an older `packages/server/src`, e.g.
 * `mkdir -p bench/results/base && git archive <rev> packages/server/src | tar -x -C bench/results/base`)
 * the old and the current code run alternately on the same store, so the ratio holds on a busy
 * machine; both answers must be the same JSON.
 *
 *   node --import tsx bench/tracing/traceAnswer.ts --data-dir /tmp/tr200k [--rounds 30] [--baseline bench/results/base]
 *
 * The data directory must not be in use by a server (chDB binds it to one process).
 */
const { values: args } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    trace: { type: 'string', default: 'b1'.repeat(16) },
    rounds: { type: 'string', default: '30' },
    baseline: { type: 'string' },
  },
});
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DATA_DIR = args['data-dir'] ?? join(ROOT, 'bench/results/tracing-data');
const TRACE = args.trace;

type Code = { store: typeof currentStore; tree: typeof currentTree };
const variants: [string, Code][] = [['current', { store: currentStore, tree: currentTree }]];
if (args.baseline) {
  const dir = resolve(args.baseline, 'packages/server/src/tracing');
  variants.unshift([
    'baseline',
    {
      store: (await import(join(dir, 'tracing.store.ts'))) as typeof currentStore,
      tree: (await import(join(dir, 'traceTree.ts'))) as typeof currentTree,
    },
  ]);
}

const store = openBenchStore(DATA_DIR);
const STAGES = ['read', 'build', 'stringify', 'total'] as const;
const times = new Map(variants.map(([name]) => [name, Object.fromEntries(STAGES.map((s) => [s, [] as number[]]))]));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function once(code: Code): Promise<{ ms: Record<(typeof STAGES)[number], number>; json: string }> {
  const t0 = performance.now();
  const rows = await code.store.createTracingStore(store).traceRows(1, TRACE);
  const t1 = performance.now();
  const tree = code.tree.buildTraceTree(TRACE, rows);
  const t2 = performance.now();
  const json = JSON.stringify(tree);
  const t3 = performance.now();
  return { ms: { read: t1 - t0, build: t2 - t1, stringify: t3 - t2, total: t3 - t0 }, json };
}

try {
  const load0 = loadavg()[0];
  // One warm-up round each (cold files, JIT), then alternate.
  const first = await Promise.all(variants.map(async ([, code]) => (await once(code)).json));
  if (first.length === 2 && first[0] !== first[1] && !isDeepStrictEqual(JSON.parse(first[0]), JSON.parse(first[1])))
    throw new Error('the baseline and the current code answer different JSON');
  console.log(
    `trace ${TRACE}: ${(first[0].length / 1e6).toFixed(2)} MB of JSON; same text: ${first.every((j) => j === first[0])}`,
  );
  for (let r = 0; r < Number(args.rounds); r++) {
    for (const [name, code] of r % 2 ? [...variants].reverse() : variants) {
      const { ms } = await once(code);
      for (const s of STAGES) times.get(name)![s].push(ms[s]);
    }
  }
  for (const [name] of variants)
    console.log(
      `${name.padEnd(9)} ${STAGES.map((s) => `${s} ${median(times.get(name)![s]).toFixed(1).padStart(6)} ms`).join('   ')}`,
    );
  if (variants.length === 2)
    console.log(
      `current / baseline: ${STAGES.map((s) => `${s} ${(median(times.get('current')![s]) / median(times.get('baseline')![s])).toFixed(2)}`).join('   ')}`,
    );
  console.log(`medians of ${args.rounds} rounds; load average ${load0.toFixed(2)} -> ${loadavg()[0].toFixed(2)}`);
} finally {
  await store.close();
}
