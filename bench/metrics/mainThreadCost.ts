import { parseArgs } from 'node:util';
import { PromWriteState, promUndo } from '../../packages/server/src/metrics/ingest/promRemoteWrite';
import { preparePromWrite, type PromColumns } from '../../packages/server/src/metrics/ingest/promWriteWire';
import { DatapointFold } from '../../packages/server/src/storage/telemetry/datapointFold';
import { encodeRecords } from '../../packages/server/src/storage/telemetry/datapointRecords';
import { loadBodies } from './remoteWrite';

/**
 * What remote write costs the server's main thread per sample, stage by stage, one thread, on
 * `remoteWriteLoad.ts`'s series (counters, one sample a series and request, requests of 2,000):
 * the requests are decoded first (the workers' part, not timed), then timed by process CPU:
 * `rows` (PromWriteState's knows + plan + rows: typing, counter steps, the fold's columns),
 * `journal` (the records the fold's journal appends, a segment a second: 100 requests at 200k samples/s),
 * `fold` (DatapointFold.addLines) and `take` (the written rows as the checkpoint file's RowBinary
 * bytes, every row taken at once).
 *
 *   node --import tsx bench/metrics/mainThreadCost.ts [--series 20000] [--samples 24] [--passes 4]
 */
const { values: args } = parseArgs({
  options: {
    series: { type: 'string', default: '20000' },
    samples: { type: 'string', default: '24' },
    passes: { type: 'string', default: '4' },
  },
});
const SERIES = Number(args.series);
const SAMPLES = Number(args.samples);
const PER_REQUEST = 2000;

// Decoded as a worker does; the main thread gets them moved (here: copied once, before timing).
const requests: PromColumns[] = loadBodies(SERIES, SAMPLES, PER_REQUEST).map((body) => {
  const out = preparePromWrite({ body, projectId: 1, dropAttrs: [], maxBytes: 64 << 20, full: true });
  if (!out.ok) throw new Error(out.message);
  return structuredClone(out);
});

const cpu = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};
for (let pass = 1; pass <= Number(args.passes); pass++) {
  // A fresh state each pass: a counter's first sample is its baseline (no row), as in a new server.
  const state = new PromWriteState(BigInt(Date.now() - 3_600_000) * 1_000_000n);
  const t0 = cpu();
  const outs = requests.map((cols) => {
    state.knows(cols);
    const plan = state.plan(cols, 1);
    return state.rows(cols, plan, promUndo());
  });
  const t1 = cpu();
  let journaled = 0;
  outs.forEach((out, i) => {
    for (const chunk of out.chunks) journaled += encodeRecords([chunk.lines!], Math.floor(i / 100)).length;
  });
  const t1j = cpu();
  const fold = new DatapointFold();
  let samples = 0;
  for (const out of outs)
    for (const chunk of out.chunks) {
      fold.addLines(chunk.lines!, 0, 0);
      samples += chunk.rows;
    }
  const t2 = cpu();
  const taken = fold.take(() => true);
  const t3 = cpu();
  const per = (us: number) => (us / samples).toFixed(3);
  console.log(
    `pass ${pass}: µs a sample: rows ${per(t1 - t0)}, journal ${per(t1j - t1)}, fold ${per(t2 - t1j)}, take ${per(t3 - t2)} ` +
      `(${samples} samples into ${taken.rows} rows, ${journaled} B journaled, ${taken.data.length} B of written rows)`,
  );
}
