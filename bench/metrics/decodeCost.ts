import { decodeMetricsProto } from '../../packages/server/src/metrics/ingest/otlpMetricsProto';
import { decodeMetricsWire } from '../../packages/server/src/metrics/ingest/otlpMetricsWire';
import { encodeRequest } from '../../packages/server/src/metrics/ingest/prepareMetrics';
import { benchOtlpBodies } from './otlpBodies';

/**
 * The prepare worker's CPU per datapoint on `bench/metrics`'s bodies (10,000 series, 5,000
 * datapoints a body), one thread: the OTLP decode alone and decode + mapping + TSV, by protobufjs
 * and by the wire reader, in turns.
 *
 *   node --import tsx bench/metrics/decodeCost.ts [--rounds 3]
 */
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 3;
const { bodies, points } = benchOtlpBodies({ series: 10_000, stepMs: 60_000, hours: 2, perRequest: 5000 });
const decoders = { protobufjs: decodeMetricsProto, wire: decodeMetricsWire };

/** µs per datapoint of `f` over every body, repeated for 3 s after one pass. */
function perPoint(f: (b: Buffer) => void): number {
  for (const b of bodies) f(b);
  const t0 = performance.now();
  let passes = 0;
  do {
    for (const b of bodies) f(b);
    passes++;
  } while (performance.now() - t0 < 3000);
  return ((performance.now() - t0) * 1000) / (passes * points);
}

for (let r = 1; r <= rounds; r++) {
  const out = Object.entries(decoders).map(([name, decode]) => {
    const alone = perPoint((b) => decode(b));
    const all = perPoint((b) => encodeRequest(decode(b), 1, null, []));
    return `${name} ${alone.toFixed(2)} / ${all.toFixed(2)}`;
  });
  console.log(`round ${r}: µs per datapoint, decode / decode + mapping + TSV: ${out.join(', ')}`);
}
