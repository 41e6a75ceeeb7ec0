import protobuf from 'protobufjs';

/**
 * Prometheus remote write 1.0 bodies: a `prometheus.WriteRequest` protobuf, snappy block
 * compressed. The snappy encoder only emits literal runs, which is valid snappy (the block format
 * has no requirement to find matches), so no compression library is needed for the benchmark.
 */
export interface PromSeries {
  labels: [string, string][];
  samples: { value: number; timestampMs: number }[];
}

/** Series `i` of remoteWriteLoad.ts's counters (200 instances), its sample `k` (1-based value growth) at `ms`. */
export function loadSeries(i: number, k: number, ms: number): PromSeries {
  return {
    labels: [
      ['__name__', 'bench_rw_requests_total'],
      ['instance', `host-${i % 200}:9100`],
      ['job', 'bench'],
      ['series', String(i)],
    ],
    samples: [{ value: (k + 1) * ((i % 7) + 1), timestampMs: ms }],
  };
}

export function encodeWriteRequest(series: readonly PromSeries[]): Uint8Array {
  const w = protobuf.Writer.create();
  for (const s of series) {
    w.uint32((1 << 3) | 2).fork(); // timeseries
    for (const [name, value] of s.labels)
      w.uint32((1 << 3) | 2)
        .fork()
        .uint32((1 << 3) | 2)
        .string(name)
        .uint32((2 << 3) | 2)
        .string(value)
        .ldelim();
    for (const smp of s.samples)
      w.uint32((2 << 3) | 2)
        .fork()
        .uint32((1 << 3) | 1)
        .double(smp.value)
        .uint32(2 << 3)
        .int64(smp.timestampMs)
        .ldelim();
    w.ldelim();
  }
  return w.finish();
}

export function snappyLiteral(input: Uint8Array): Buffer {
  const out: number[] = [];
  let n = input.length;
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  const chunks: Buffer[] = [Buffer.from(out)];
  const MAX = 65536;
  for (let i = 0; i < input.length; i += MAX) {
    const len = Math.min(MAX, input.length - i);
    // tag 61<<2: the literal length - 1 follows in 2 little-endian bytes
    chunks.push(Buffer.from([61 << 2, (len - 1) & 0xff, (len - 1) >> 8]), Buffer.from(input.subarray(i, i + len)));
  }
  return Buffer.concat(chunks);
}

/**
 * The bodies of `series` counter series x `samples` samples 15 s apart (ending at the last minute),
 * time-major, `perRequest` samples a body: what one sender of `remoteWriteLoad.ts` sends, for the
 * benches that time a stage alone (workerCost.ts, mainThreadCost.ts).
 */
export function loadBodies(series: number, samples: number, perRequest: number): Buffer[] {
  const start = Math.floor(Date.now() / 60_000) * 60_000 - samples * 15_000;
  const bodies: Buffer[] = [];
  let batch: PromSeries[] = [];
  for (let k = 0; k < samples; k++)
    for (let i = 0; i < series; i++) {
      batch.push(loadSeries(i, k, start + k * 15_000));
      if (batch.length === perRequest) {
        bodies.push(snappyLiteral(encodeWriteRequest(batch)));
        batch = [];
      }
    }
  if (batch.length > 0) bodies.push(snappyLiteral(encodeWriteRequest(batch)));
  return bodies;
}
