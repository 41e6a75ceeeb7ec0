import { describe, expect, it } from 'vitest';
import { QueueFullError } from './batcher';
import type { PrepareResult, PrepareTask } from './prepare';
import { boundedPool } from './preparePool';

const task = (bytes: number): PrepareTask => ({
  kind: 'otlp_traces',
  format: 'protobuf',
  body: new Uint8Array(bytes),
  project: { projectId: 1, groupByEnv: false, groupFuncsByService: false },
  nowNs: '0',
  maxRows: 10,
  stagingDir: '/nonexistent',
});
const done: PrepareResult = { ok: false, type: 'invalid_input', code: 'x', message: 'x', rows: 0 };

/** A pool whose tasks finish only when told to. */
function heldPool(limits: { maxBytes: number; maxRequests: number }) {
  const release: (() => void)[] = [];
  const pool = boundedPool(
    limits,
    () => new Promise<PrepareResult>((r) => release.push(() => r(done))),
    async () => {},
  );
  return { pool, releaseAll: () => release.splice(0).forEach((r) => r()) };
}

describe('boundedPool', () => {
  it('refuses past the request count and takes requests again once they finish', async () => {
    const { pool, releaseAll } = heldPool({ maxBytes: 1e9, maxRequests: 2 });
    const running = [pool.run(task(1)), pool.run(task(1))];
    await expect(pool.run(task(1))).rejects.toBeInstanceOf(QueueFullError);
    releaseAll();
    await Promise.all(running);
    const again = pool.run(task(1));
    releaseAll();
    await expect(again).resolves.toBe(done);
  });

  it('refuses past the byte limit, but takes a body of any size into an empty pool', async () => {
    const { pool, releaseAll } = heldPool({ maxBytes: 100, maxRequests: 100 });
    const big = pool.run(task(500));
    await expect(pool.run(task(1))).rejects.toBeInstanceOf(QueueFullError);
    releaseAll();
    await big;
    const a = pool.run(task(60));
    await expect(pool.run(task(50))).rejects.toBeInstanceOf(QueueFullError);
    const b = pool.run(task(40));
    releaseAll();
    await Promise.all([a, b]);
  });

  it('frees the room of a task that fails', async () => {
    const pool = boundedPool(
      { maxBytes: 10, maxRequests: 1 },
      async () => Promise.reject(new Error('boom')),
      async () => {},
    );
    await expect(pool.run(task(10))).rejects.toThrow('boom');
    await expect(pool.run(task(10))).rejects.toThrow('boom');
  });
});
