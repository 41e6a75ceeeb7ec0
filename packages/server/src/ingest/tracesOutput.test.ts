import { describe, expect, it } from 'vitest';
import { benchBodies, oddBody, OPTION_SETS, outputDigest } from './tracesOutput.fixtures';
import { produceOtlpTraces } from './tracesIngest';

/**
 * What the OTLP/protobuf trace path stores, pinned: the digests below were taken from the encoded
 * rows before the prepare stages were rewritten for speed (issue 17), so a faster decoder,
 * normaliser or encoder must produce the very same bytes. A change of stored rows that is meant
 * updates the digest (the failure prints the new one).
 */
describe('OTLP trace output', () => {
  it('the bench generator requests encode to the same bytes', () => {
    expect(outputDigest(benchBodies(1, 3, 1000), 'protobuf')).toBe(
      'a11380db9b8139d1b99d0a30b1159029a6bdcba6707480f2fee163b0a97b61ae',
    );
  });

  it('odd spans encode to the same bytes', () => {
    expect(outputDigest([oddBody()], 'protobuf')).toBe(
      'a133355e4bccc48b32aa5f1b4f902408f324b215d1b802fc859c03531b187dc1',
    );
  });

  it('reports the spans the decoder dropped as partial success', () => {
    const produced = produceOtlpTraces(oddBody(), 'protobuf', OPTION_SETS[0]);
    expect(produced.rejected).toBe(2);
    expect(produced.rejectedMessage).toBe(
      'resourceSpans[1].scopeSpans[0].spans[0].spanId: expected a 8-byte id (16 hex chars), got 1 bytes',
    );
  });
});
