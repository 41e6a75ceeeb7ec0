import { readFileSync, writeFileSync } from 'node:fs';
import { encodeTracesRequest } from './otlpProto';
import { Rng } from './rng';
import { generateRequest } from './traceGenerator';

/**
 * The request bodies a run sends, generated and protobuf-encoded before any timing starts so the
 * client's encoding cost (on the same two cores as the server) does not count against the server.
 * The pool is written to a file so the stage-rate child measures exactly the same bytes.
 */
export interface RequestPool {
  bodies: Buffer[];
  spansPerRequest: number;
  /** Span events in the whole pool (each becomes an extra stored row). */
  events: number;
  /** Average attributes per span: the span's own, and with its resource's. */
  spanAttrs: number;
  totalAttrs: number;
}

export function buildRequestPool(opts: { requests: number; spansPerRequest: number; seed: number }): RequestPool {
  const rng = new Rng(opts.seed);
  const nowNs = BigInt(Date.now()) * 1_000_000n;
  const bodies: Buffer[] = [];
  let events = 0;
  let spanAttrs = 0;
  let totalAttrs = 0;
  for (let i = 0; i < opts.requests; i++) {
    const { request, events: e } = generateRequest(rng, nowNs, opts.spansPerRequest);
    events += e;
    for (const rs of request.resourceSpans) {
      for (const ss of rs.scopeSpans) {
        for (const span of ss.spans) {
          spanAttrs += span.attributes.length;
          totalAttrs += span.attributes.length + rs.resource.attributes.length;
        }
      }
    }
    const bytes = encodeTracesRequest(request);
    bodies.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
  const spans = opts.requests * opts.spansPerRequest;
  return {
    bodies,
    spansPerRequest: opts.spansPerRequest,
    events,
    spanAttrs: spanAttrs / spans,
    totalAttrs: totalAttrs / spans,
  };
}

/** `[u32 length][bytes]...`: enough for a child process to get the very same bodies back. */
export function writePoolFile(path: string, bodies: readonly Buffer[]): void {
  const parts: Buffer[] = [];
  for (const b of bodies) {
    const len = Buffer.alloc(4);
    len.writeUInt32LE(b.length);
    parts.push(len, b);
  }
  writeFileSync(path, Buffer.concat(parts));
}

export function readPoolFile(path: string): Buffer[] {
  const all = readFileSync(path);
  const bodies: Buffer[] = [];
  for (let off = 0; off < all.length;) {
    const len = all.readUInt32LE(off);
    bodies.push(all.subarray(off + 4, off + 4 + len));
    off += 4 + len;
  }
  return bodies;
}
