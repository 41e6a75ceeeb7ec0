import { describe, expect, it } from 'vitest';
import { runFuzz } from '@lantern/testkit/hardening/fuzz';

/**
 * Corpus-based fuzzing, short form (long form: `bench/ingest-hardening`): mutated protobuf, JSON,
 * compressed (every accepted Content-Encoding), Zipkin and Vector bodies over HTTP and gRPC; no
 * crash, no hang, every answer 2xx/4xx with a JSON error body. The seed is printed so a failure
 * can be replayed.
 */
describe('ingest fuzzing', () => {
  it('survives a few thousand mutated requests', async () => {
    const seed = Number(process.env.LANTERN_FUZZ_SEED) || Date.now() % 1_000_000;
    const result = await runFuzz({ httpCases: 3000, grpcCases: 600, seed, concurrency: 12, timeoutMs: 15_000 });
    console.log(JSON.stringify({ seed, ...result, failures: result.failures.slice(0, 5) }));
    expect(result.failures).toEqual([]);
    expect(result.aliveAfter).toBe(true);
    // The corpus reaches both outcomes: stored (2xx) and refused (4xx).
    expect(Object.keys(result.statuses).some((s) => s.startsWith('2'))).toBe(true);
    expect(Object.keys(result.statuses).some((s) => s.startsWith('4'))).toBe(true);
  }, 120_000);
});
