import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { signIn, startLantern } from '@lantern/testkit/harness';
import { pct, tracingCaller } from './benchCalls';

/**
 * "What changed" over the `bench/tracing` data set (issue 38: a 24 h range over 10M spans answers in
 * <= 1 s): `attr-deltas` with a duration selection and with the errors, and the duration heatmap,
 * over HTTP with a signed-in session, p50/p95 of `--runs` requests after `--warmup` each. Load the
 * data first with `bench/tracing/run.ts` (same `--data-dir`).
 *
 *   node --import tsx bench/tracing/attrDeltas.ts [--data-dir bench/results/tracing-data] [--runs 10] [--warmup 2]
 *     [--server DIR/main.js]   # another version's server (a bundle or main.ts), e.g. the one before a change
 */
const { values: args } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    runs: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    server: { type: 'string' },
  },
});
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DATA_DIR = args['data-dir'] ?? join(ROOT, 'bench/results/tracing-data');
const marker = JSON.parse(readFileSync(join(DATA_DIR, 'bench-tracing.json'), 'utf8')) as {
  spans: number;
  endMs: number;
};

const lantern = await startLantern({
  dataDir: DATA_DIR,
  env: { LANTERN_LOG_LEVEL: 'error', LANTERN_CHECK_ANSWERS: '0' },
  ...(args.server ? { serverMain: args.server } : {}),
});
try {
  const cookie = await signIn(lantern.baseUrl);
  const range = (hours: number) => ({
    time_gte: new Date(marker.endMs - hours * 3600_000).toISOString(),
    time_lt: new Date(marker.endMs).toISOString(),
  });
  const call = tracingCaller(lantern.baseUrl, cookie);
  const cases: [string, string, Record<string, string>][] = [
    [
      'attr-deltas (24h, all, .duration > 100ms)',
      'attr-deltas',
      { ...range(24), selection: 'where .duration > 100ms' },
    ],
    [
      'attr-deltas (24h, spans:all, errors)',
      'attr-deltas',
      { ...range(24), 'system[]': 'spans:all', selection: 'where .status_code = "error"' },
    ],
    [
      'attr-deltas (24h, http:all, errors)',
      'attr-deltas',
      { ...range(24), 'system[]': 'http:all', selection: 'where .status_code = "error"' },
    ],
    ['attr-deltas (1h, all, .duration > 100ms)', 'attr-deltas', { ...range(1), selection: 'where .duration > 100ms' }],
    ['duration-heatmap (24h, spans:all)', 'duration-heatmap', { ...range(24), 'system[]': 'spans:all' }],
    ['duration-heatmap (1h, spans:all)', 'duration-heatmap', { ...range(1), 'system[]': 'spans:all' }],
  ];
  console.log(`${marker.spans} spans over 24 h`);
  for (const [name, path, params] of cases) {
    for (let i = 0; i < Number(args.warmup); i++) await call(path, params);
    const ms: number[] = [];
    let last: Record<string, unknown> = {};
    for (let i = 0; i < Number(args.runs); i++) {
      const t = performance.now();
      last = await call(path, params);
      ms.push(performance.now() - t);
    }
    ms.sort((a, b) => a - b);
    const about =
      path === 'attr-deltas'
        ? (() => {
            const a = last as {
              attrs: { key: string; score: number }[];
              selection: { count: number; sampled: number };
              baseline: { count: number; sampled: number };
            };
            return `selection ${a.selection.sampled}/${a.selection.count}, baseline ${a.baseline.sampled}/${a.baseline.count}; top ${a.attrs
              .slice(0, 3)
              .map((x) => `${x.key} ${x.score}`)
              .join(', ')}`;
          })()
        : '';
    console.log(
      `${name.padEnd(44)} p50 ${pct(ms, 50).toFixed(0).padStart(5)} ms  p95 ${pct(ms, 95).toFixed(0).padStart(5)} ms  ${about}`,
    );
  }
} finally {
  await lantern.stop();
}
