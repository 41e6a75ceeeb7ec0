import { describe, expect, it } from 'vitest';
import { sql } from '../sql';
import { shareIdenticalReads } from './sharedReads';
import type { TelemetryStore } from './telemetryStore';

/**
 * The rule that only a remote ClickHouse can show (the embedded engine runs one statement at a
 * time, so a write never commits while a read is in flight): a read issued after a write never
 * joins one issued before it. The engine's timing is played by deferred promises here; the sharing
 * itself runs against the real stores in telemetryStore.int.test.ts.
 */
function deferredStore() {
  const reads: { resolve: (rows: unknown[]) => void }[] = [];
  let write: (() => void) | undefined;
  const store = {
    query: () => new Promise<unknown[]>((resolve) => reads.push({ resolve })),
    insertRows: () =>
      new Promise<void>((resolve) => {
        write = resolve;
      }),
  } as unknown as TelemetryStore;
  return { store, reads, commitWrite: () => write!() };
}

describe('shareIdenticalReads', () => {
  it('lets a read issued after a write commit run on its own, while the earlier one is still in flight', async () => {
    const { store, reads, commitWrite } = deferredStore();
    const shared = shareIdenticalReads(store);
    const q = sql`SELECT 1`;
    const before = shared.query(q);
    const joined = shared.query(q);
    expect(reads).toHaveLength(1);

    const written = shared.insertRows('metrics_catalog', []);
    commitWrite();
    await written;
    const after = shared.query(q);
    expect(reads).toHaveLength(2);

    reads[0].resolve([{ n: 1 }]);
    reads[1].resolve([{ n: 2 }]);
    expect(await Promise.all([before, joined, after])).toEqual([[{ n: 1 }], [{ n: 1 }], [{ n: 2 }]]);
  });

  it('gives every caller of a failed read its error, and runs the next read again', async () => {
    const { store, reads } = deferredStore();
    const shared = shareIdenticalReads(store);
    const q = sql`SELECT 1`;
    const first = shared.query(q);
    const second = shared.query(q);
    (reads[0] as unknown as { resolve: (v: Promise<never>) => void }).resolve(Promise.reject(new Error('engine down')));
    await expect(first).rejects.toThrow('engine down');
    await expect(second).rejects.toThrow('engine down');
    void shared.query(q);
    expect(reads).toHaveLength(2);
  });
});
