import { parseArgs } from 'node:util';
import { PROJECT1_TOKEN, removeDataDir, startLantern } from '@lantern/testkit/harness';
import { readThreadCpu, threadCpuUsed } from '../ingest/procStatus';
import { benchOtlpBodies } from './otlpBodies';

/**
 * Where the server's CPU goes per datapoint, by thread: `bench/metrics`'s OTLP load (delta
 * counters, 10,000 series, 4 clients x 5,000 datapoints) into a fresh server, with each thread's
 * CPU read from /proc/<pid>/task before and after (chDB's query, merge and pool threads by name;
 * the Node main thread, prepare workers and V8 helpers are all `node`, listed one by one).
 * Figures: docs/benchmarks.md ("Metrics ingest off the event loop").
 *
 *   node --import tsx bench/metrics/threadCost.ts [--hours 4] [--step-min 5]
 */
const { values: args } = parseArgs({
  options: { hours: { type: 'string', default: '4' }, 'step-min': { type: 'string', default: '5' } },
});
const { bodies, points } = benchOtlpBodies({
  series: 10_000,
  stepMs: Number(args['step-min']) * 60_000,
  hours: Number(args.hours),
  perRequest: 5000,
});
const lantern = await startLantern();
const pid = lantern.process.pid!;

try {
  const before = readThreadCpu(pid);
  const dsn = `http://${PROJECT1_TOKEN}@127.0.0.1:${lantern.httpPort}/1`;
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++];
        for (;;) {
          const res = await fetch(`${lantern.baseUrl}/v1/metrics`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-protobuf', 'lantern-dsn': dsn },
            body,
          });
          await res.arrayBuffer();
          if (res.status !== 429 && res.status !== 503) break;
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    }),
  );
  const used = threadCpuUsed(before, readThreadCpu(pid)).filter(([, s]) => s > 0.05);
  const us = (s: number) => ((s * 1e6) / points).toFixed(1);
  console.log(`${points} datapoints; CPU per datapoint by thread:`);
  for (const [k, s] of used) console.log(`  ${k.padEnd(24)} ${us(s)} us`);
  console.log(`  total                    ${us(used.reduce((n, [, s]) => n + s, 0))} us`);
} finally {
  await lantern.stop();
  removeDataDir(lantern.dataDir);
}
