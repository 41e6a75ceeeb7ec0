import { describe, expect, it } from 'vitest';
import { Batcher, BatcherClosedError, QueueFullError } from './batcher';
import type { SpanRow } from './spanRow';

const rows = (n: number) => Array.from({ length: n }, () => ({}) as SpanRow);

function controlledWrite() {
  const calls: { rows: number; release: (err?: Error) => void }[] = [];
  const write = (r: SpanRow[]) =>
    new Promise<void>((resolve, reject) =>
      calls.push({ rows: r.length, release: (err) => (err ? reject(err) : resolve()) }),
    );
  return { calls, write };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('Batcher', () => {
  it('answers a request only after the batch holding it is written', async () => {
    const { calls, write } = controlledWrite();
    const b = new Batcher({ batchRows: 10, flushIntervalMs: 5, queueRows: 100, queueBytes: 1e6, write });
    let done = false;
    const p = b.submit(rows(3), 10).then(() => (done = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toHaveLength(1);
    expect(done).toBe(false);
    calls[0].release();
    await p;
    expect(done).toBe(true);
    expect(b.stats.committedRows).toBe(3);
  });

  it('groups requests that arrive during a write into the next batch', async () => {
    const { calls, write } = controlledWrite();
    const b = new Batcher({ batchRows: 5, flushIntervalMs: 1000, queueRows: 100, queueBytes: 1e6, write });
    const first = b.submit(rows(5), 1);
    await tick();
    expect(calls.map((c) => c.rows)).toEqual([5]);
    const later = [b.submit(rows(2), 1), b.submit(rows(3), 1)];
    calls[0].release();
    await first;
    await tick();
    expect(calls.map((c) => c.rows)).toEqual([5, 5]);
    calls[1].release();
    await Promise.all(later);
  });

  it('writes a batch of eagerRows as soon as the writer is free, a smaller one after the interval', async () => {
    const { calls, write } = controlledWrite();
    const b = new Batcher({
      batchRows: 100,
      eagerRows: 3,
      flushIntervalMs: 60_000,
      queueRows: 1000,
      queueBytes: 1e6,
      write,
    });
    const first = b.submit(rows(2), 1);
    await tick();
    const eager = b.submit(rows(3), 1);
    calls[0].release();
    await first;
    await tick();
    expect(calls.map((c) => c.rows)).toEqual([2, 3]);
    const small = b.submit(rows(2), 1);
    calls[1].release();
    await eager;
    await tick();
    expect(calls).toHaveLength(2);
    // The small one waits for the interval (or, here, the close).
    const closing = b.close();
    await tick();
    expect(calls.map((c) => c.rows)).toEqual([2, 3, 2]);
    calls[2].release();
    await Promise.all([small, closing]);
  });

  it('refuses with QueueFullError when the queue is full, and recovers when it drains', async () => {
    const { calls, write } = controlledWrite();
    const b = new Batcher({ batchRows: 4, flushIntervalMs: 1, queueRows: 6, queueBytes: 1e6, write });
    const a = b.submit(rows(4), 1);
    await tick();
    const c = b.submit(rows(2), 1);
    await expect(b.submit(rows(1), 1)).rejects.toBeInstanceOf(QueueFullError);
    expect(b.stats.throttledRequests).toBe(1);
    calls[0].release();
    await a;
    await new Promise((r) => setTimeout(r, 5));
    calls[1].release();
    await c;
    const d = b.submit(rows(1), 1);
    await new Promise((r) => setTimeout(r, 5));
    calls[2].release();
    await d;
  });

  it('limits queued bytes as well as rows', async () => {
    const { calls, write } = controlledWrite();
    const b = new Batcher({ batchRows: 100, flushIntervalMs: 1000, queueRows: 1000, queueBytes: 100, write });
    const a = b.submit(rows(1), 80);
    await expect(b.submit(rows(1), 30)).rejects.toBeInstanceOf(QueueFullError);
    void b.close();
    calls[0]?.release();
    await a;
  });

  it('takes a single request larger than the queue when the queue is empty', async () => {
    const b = new Batcher({ batchRows: 10, flushIntervalMs: 1, queueRows: 10, queueBytes: 10, write: async () => {} });
    await expect(b.submit(rows(50), 500)).resolves.toBeUndefined();
  });

  it('fails every request of a batch whose write fails, and reports nothing as committed', async () => {
    const b = new Batcher({
      batchRows: 10,
      flushIntervalMs: 1,
      queueRows: 100,
      queueBytes: 1e6,
      write: async () => {
        throw new Error('disk full');
      },
    });
    const results = await Promise.allSettled([b.submit(rows(2), 1), b.submit(rows(2), 1)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(b.stats.committedRows).toBe(0);
    expect(b.stats.failedRows).toBe(4);
    expect(b.stats.queuedRows).toBe(0);
  });

  it('commits what is queued on close and refuses new requests after', async () => {
    let written = 0;
    const b = new Batcher({
      batchRows: 100,
      flushIntervalMs: 10_000,
      queueRows: 1000,
      queueBytes: 1e6,
      write: async (r) => {
        written += r.length;
      },
    });
    const p = b.submit(rows(7), 1);
    await b.close();
    await p;
    expect(written).toBe(7);
    await expect(b.submit(rows(1), 1)).rejects.toBeInstanceOf(BatcherClosedError);
  });

  it('counts the rows a chunk holds, not the chunks, against the batch and queue limits', async () => {
    const batches: string[][] = [];
    const b = new Batcher<string>({
      batchRows: 10,
      flushIntervalMs: 50,
      queueRows: 15,
      queueBytes: 1e6,
      write: async (chunks) => void batches.push(chunks),
    });
    const a = b.submit(['a'], 1, 6);
    const c = b.submit(['b'], 1, 6); // 12 rows queued: the batch of 10 takes only the first chunk
    await expect(b.submit(['c'], 1, 4)).rejects.toBeInstanceOf(QueueFullError);
    await Promise.all([a, c]);
    expect(batches).toEqual([['a'], ['b']]);
    expect(b.stats.committedRows).toBe(12);
  });

  it('writes at once when idle, then at most one partial batch per flush interval', async () => {
    const starts: number[] = [];
    const b = new Batcher({
      batchRows: 100,
      flushIntervalMs: 1000,
      queueRows: 1000,
      queueBytes: 1e6,
      write: async () => void starts.push(performance.now()),
    });
    const t0 = performance.now();
    await b.submit(rows(1), 1);
    expect(starts[0] - t0).toBeLessThan(500);
    await b.submit(rows(1), 1);
    // Node's timers count from the event loop's clock, which can be behind performance.now() by the
    // turn of the loop that set them (tens of ms on a loaded machine): 950, not 1000.
    expect(starts[1] - starts[0]).toBeGreaterThanOrEqual(950);
    await b.submit(rows(100), 1); // a full batch does not wait
    expect(starts[2] - starts[1]).toBeLessThan(500);
    await b.submit(rows(13), 1); // nor does an eighth of one
    expect(starts[3] - starts[2]).toBeLessThan(500);
    await b.submit(rows(12), 1); // a smaller one does
    expect(starts[4] - starts[3]).toBeGreaterThanOrEqual(950);
  });

  it('writes a batch of an eighth of batchRows as soon as the write before it ends', async () => {
    const { calls, write } = controlledWrite();
    const b = new Batcher({ batchRows: 80, flushIntervalMs: 60_000, queueRows: 1000, queueBytes: 1e6, write });
    const first = b.submit(rows(1), 1);
    await tick();
    expect(calls).toHaveLength(1);
    const small = b.submit(rows(5), 1);
    const enough = b.submit(rows(5), 1); // 10 rows queued: an eighth of 80
    calls[0].release();
    await first;
    await tick();
    expect(calls.map((c) => c.rows)).toEqual([1, 10]);
    calls[1].release();
    await Promise.all([small, enough]);
  });

  it('refuses what would wait longer than maxQueueWaitMs at the measured write rate', async () => {
    const { calls, write } = controlledWrite();
    const b = new Batcher({
      batchRows: 100,
      flushIntervalMs: 1,
      queueRows: 100_000,
      queueBytes: 1e9,
      maxQueueWaitMs: 1000,
      write,
    });
    const first = b.submit(rows(100), 1); // no rate known yet: only the row limit applies
    await tick();
    await new Promise((r) => setTimeout(r, 200));
    calls[0].release(); // 100 rows in >= 200 ms: at most 500 rows/s (at least 200 while the timer is <= 2.5x late)
    await first;
    const accepted = [b.submit(rows(100), 1)]; // written at once, held open
    await tick();
    accepted.push(b.submit(rows(100), 1)); // 200 rows queued: <= 1 s at >= 200 rows/s
    const refused = b.submit(rows(600), 1); // 800 rows: >= 1.6 s at <= 500 rows/s
    await expect(refused).rejects.toBeInstanceOf(QueueFullError);
    await expect(refused).rejects.toMatchObject({ retryAfterSec: 1 });
    for (let i = 1; i < 5; i++) {
      while (calls.length <= i) await tick();
      calls[i].release();
      if ((await Promise.race([Promise.all(accepted).then(() => true), tick().then(() => false)])) === true) break;
    }
    await Promise.all(accepted);
    expect(b.stats.committedRows).toBe(300);
  });
});
