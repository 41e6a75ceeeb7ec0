import { parseArgs } from 'node:util';
import { compressSync, uncompressSync } from 'snappy';
import { decodeSnappyBlock } from '../../packages/server/src/ingest/compression/snappy';
import { encodeWriteRequest, loadSeries, snappyLiteral } from './remoteWrite';

/**
 * Inflating a remote write body (`remoteWriteLoad.ts`'s 2,000 series, one sample each): the
 * `snappy` package's native `uncompressSync` against `decodeSnappyBlock` (the server's own loop),
 * each on the bench's literal block (what `remoteWriteLoad.ts` sends) and on the block the
 * `snappy` package compresses (what a Prometheus sends). Wall ms a body, min and median of the passes.
 *
 *   node --import tsx bench/metrics/snappyCost.ts [--passes 7] [--bodies 300]
 */
const { values: args } = parseArgs({
  options: { passes: { type: 'string', default: '7' }, bodies: { type: 'string', default: '300' } },
});
const PASSES = Number(args.passes);
const BODIES = Number(args.bodies);

const raw = encodeWriteRequest(Array.from({ length: 2000 }, (_, i) => loadSeries(i, 0, Date.now())));
const blocks = { literal: snappyLiteral(raw), compressed: compressSync(raw) };
const decoders = {
  'snappy package': (b: Buffer) => uncompressSync(b, { asBuffer: true }) as Buffer,
  decodeSnappyBlock: (b: Buffer) => decodeSnappyBlock(b, 64 << 20),
};
const ms = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${s[0].toFixed(3)} / ${s[Math.floor(s.length / 2)].toFixed(3)}`;
};
console.log(
  `body: ${raw.length} bytes; literal block ${blocks.literal.length}, compressed ${blocks.compressed.length}`,
);
for (const [blockName, block] of Object.entries(blocks)) {
  const times: Record<string, number[]> = {};
  for (let p = 0; p < PASSES; p++)
    for (const [name, decode] of Object.entries(decoders)) {
      if (!decode(block).equals(raw)) throw new Error(`${name} decoded the ${blockName} block wrong`);
      const t = performance.now();
      for (let i = 0; i < BODIES; i++) decode(block);
      (times[name] ??= []).push((performance.now() - t) / BODIES);
    }
  for (const [name, xs] of Object.entries(times))
    console.log(`${blockName} block, ${name}: ${ms(xs)} ms a body (min / median)`);
}
