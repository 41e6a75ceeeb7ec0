import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { signIn, startLantern } from '@lantern/testkit/harness';

/**
 * The trace endpoint over HTTP, an older server against the current one on the same data: the two
 * servers take turns (one at a time: chDB binds the data directory to one process), `--rounds`
 * turns each, alternating which goes first, `--requests` timed requests per turn after
 * `--warmup`. The older server is a copy of another commit:
 *
 *   mkdir -p bench/results/base && git archive <rev> package.json packages/server | tar -x -C bench/results/base
 *   node --import tsx bench/tracing/traceHttpAb.ts --data-dir /tmp/tr200k --baseline bench/results/base [--rounds 4]
 *
 * The data directory is one `bench/tracing/run.ts` loaded. Servers run as in production (no answer
 * checks) unless `--check-answers`.
 */
const { values: args } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    baseline: { type: 'string' },
    trace: { type: 'string', default: 'b1'.repeat(16) },
    rounds: { type: 'string', default: '4' },
    requests: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    'check-answers': { type: 'boolean', default: false },
  },
});
if (!args.baseline) throw new Error('--baseline DIR: a copy of an older package.json and packages/server');
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DATA_DIR = args['data-dir'] ?? join(ROOT, 'bench/results/tracing-data');
const MAINS = {
  baseline: join(args.baseline, 'packages/server/src/main.ts'),
  current: 'packages/server/src/main.ts',
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const times: Record<keyof typeof MAINS, number[]> = { baseline: [], current: [] };
const load0 = loadavg()[0];
for (let round = 0; round < Number(args.rounds); round++) {
  const order: (keyof typeof MAINS)[] = round % 2 ? ['current', 'baseline'] : ['baseline', 'current'];
  for (const name of order) {
    const lantern = await startLantern({
      dataDir: DATA_DIR,
      serverMain: MAINS[name],
      env: { LANTERN_LOG_LEVEL: 'error', LANTERN_CHECK_ANSWERS: args['check-answers'] ? '1' : '0' },
    });
    try {
      const cookie = await signIn(lantern.baseUrl);
      const ms: number[] = [];
      for (let i = 0; i < Number(args.warmup) + Number(args.requests); i++) {
        const t = performance.now();
        const res = await fetch(`${lantern.baseUrl}/api/v1/tracing/1/traces/${args.trace}`, { headers: { cookie } });
        const body = await res.text();
        if (res.status !== 200) throw new Error(`${name}: ${res.status} ${body.slice(0, 300)}`);
        JSON.parse(body);
        if (i >= Number(args.warmup)) ms.push(performance.now() - t);
      }
      times[name].push(...ms);
      console.log(
        `round ${round} ${name.padEnd(8)} p50 ${median(ms).toFixed(0).padStart(5)} ms   load ${loadavg()[0].toFixed(2)}`,
      );
    } finally {
      await lantern.stop();
    }
  }
}
const [b, c] = [median(times.baseline), median(times.current)];
console.log(
  `p50 over all rounds: baseline ${b.toFixed(0)} ms, current ${c.toFixed(0)} ms, current / baseline ${(c / b).toFixed(2)}; load average ${load0.toFixed(2)} -> ${loadavg()[0].toFixed(2)}`,
);
