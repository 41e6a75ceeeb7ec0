import { parseArgs } from 'node:util';
import { preparePromWrite } from '../../packages/server/src/metrics/ingest/promWriteWire';
import { loadBodies } from './remoteWrite';

/**
 * What remote write costs a prepare worker per sample, one thread, on `remoteWriteLoad.ts`'s series
 * (counters, one sample a series and request, requests of 2,000): each body inflated and read into
 * columns (`preparePromWrite`); the pool moves bodies and columns between threads (no copies), so
 * each pass's copies of the bodies are made before it is timed. The first pass makes the worker's
 * series (not counted), the rest find them. Process CPU, min and median over the passes. The main
 * thread's part: mainThreadCost.ts.
 *
 *   node --import tsx bench/metrics/workerCost.ts [--series 20000] [--samples 24] [--passes 10]
 */
const { values: args } = parseArgs({
  options: {
    series: { type: 'string', default: '20000' },
    samples: { type: 'string', default: '24' },
    passes: { type: 'string', default: '10' },
  },
});
const SERIES = Number(args.series);
const SAMPLES = Number(args.samples);
const PER_REQUEST = 2000;

const bodies = loadBodies(SERIES, SAMPLES, PER_REQUEST);
const cpu = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};
const runs: number[] = [];
for (let pass = 0; pass <= Number(args.passes); pass++) {
  const copies = bodies.map((b) => Buffer.from(b));
  const t0 = cpu();
  for (const body of copies) {
    const out = preparePromWrite({ body, projectId: 1, dropAttrs: [], maxBytes: 64 << 20 });
    if (!out.ok) throw new Error(out.message);
  }
  if (pass > 0) runs.push((cpu() - t0) / (SERIES * SAMPLES));
}
runs.sort((a, b) => a - b);
console.log(
  `µs a sample over ${runs.length} passes (${bodies.length} bodies of ~${bodies[0].length} B): min ${runs[0].toFixed(3)}, median ${runs[runs.length >> 1].toFixed(3)}`,
);
