/**
 * Group commit with a bounded queue (architecture §4). Requests enqueue their items whole and get a
 * promise that settles when the batch holding them has been written: success is never answered
 * before the rows are committed. One write runs at a time, and requests arriving meanwhile form the
 * next batch. A batch is written as soon as the writer is free and it holds at least an eighth of
 * `batchRows`; a smaller one once `flushIntervalMs` has passed since the previous write started.
 * So an idle server writes a request at once, a busy one writes back to back, and the engine never
 * sees more than one small insert (one new part per table) per interval: each insert costs tens of
 * milliseconds of engine CPU whatever its size (bench/ingest/engineCost.ts). When queued rows or
 * bytes would pass the limits the request is refused at once with QueueFullError (HTTP 429 / gRPC
 * RESOURCE_EXHAUSTED), so memory stays bounded.
 *
 * Items are whatever the writer takes: rows, or chunks of rows already encoded for storage (then
 * `submit` is told how many rows a chunk holds, and the limits count rows, not items).
 */
export interface BatcherOptions<T> {
  batchRows: number;
  flushIntervalMs: number;
  queueRows: number;
  queueBytes: number;
  /**
   * Longest expected wait for a newly queued row (queued rows / measured write rate). Keeps the
   * queue shorter than clients' export timeouts, so an accepted request is not retried as a
   * duplicate. Unset: rows and bytes are the only limits.
   */
  maxQueueWaitMs?: number;
  /** Rows from which a batch is written as soon as the writer is free (default: an eighth of `batchRows`). */
  eagerRows?: number;
  write(items: T[]): Promise<void>;
  onError?(err: unknown, rows: number): void;
}

export class QueueFullError extends Error {
  constructor(readonly retryAfterSec: number) {
    super('ingest queue is full; retry later');
    this.name = 'QueueFullError';
  }
}

export class BatcherClosedError extends Error {
  constructor() {
    super('server is shutting down');
    this.name = 'BatcherClosedError';
  }
}

interface Pending<T> {
  items: T[];
  rows: number;
  bytes: number;
  resolve(): void;
  reject(err: unknown): void;
}

export interface BatcherStats {
  queuedRows: number;
  queuedBytes: number;
  committedRows: number;
  throttledRequests: number;
  failedRows: number;
}

export class Batcher<T> {
  private queue: Pending<T>[] = [];
  private queuedRows = 0;
  private queuedBytes = 0;
  private writing = false;
  private timer: NodeJS.Timeout | null = null;
  private timerDue = 0;
  private lastWriteStart = -Infinity;
  /** Rows per second the writer sustains, from recent large writes (null until one is seen). */
  private writeRate: number | null = null;
  private closed = false;
  private idleWaiters: (() => void)[] = [];
  readonly stats: BatcherStats = {
    queuedRows: 0,
    queuedBytes: 0,
    committedRows: 0,
    throttledRequests: 0,
    failedRows: 0,
  };

  constructor(private readonly opts: BatcherOptions<T>) {}

  /**
   * Resolves when `items` are committed; rejects with QueueFullError at once when over the limits.
   * `rows` is how many stored rows the items make (one per item unless they are chunks).
   */
  submit(items: T[], bytes: number, rows: number = items.length): Promise<void> {
    if (this.closed) return Promise.reject(new BatcherClosedError());
    if (rows === 0) return Promise.resolve();
    // A single request larger than the whole queue still gets in when the queue is empty, so a
    // legitimate big request is never refused forever.
    const overLimit =
      this.queuedRows + rows > this.opts.queueRows ||
      this.queuedBytes + bytes > this.opts.queueBytes ||
      this.expectedWaitMs(this.queuedRows + rows) > (this.opts.maxQueueWaitMs ?? Infinity);
    if (overLimit && this.queuedRows > 0) {
      this.stats.throttledRequests++;
      return Promise.reject(new QueueFullError(this.retryAfterSec()));
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ items, rows, bytes, resolve, reject });
      this.queuedRows += rows;
      this.queuedBytes += bytes;
      this.syncStats();
      this.schedule();
    });
  }

  /** Stops taking requests and waits until everything queued has been written. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    void this.flush();
    if (this.queue.length || this.writing) await new Promise<void>((r) => this.idleWaiters.push(r));
  }

  private expectedWaitMs(rows: number): number {
    return this.writeRate === null ? 0 : (rows / this.writeRate) * 1000;
  }

  private retryAfterSec(): number {
    // Time to drain what is queued: at the measured rate, else at one batch per flush interval.
    const batches = Math.ceil(this.queuedRows / this.opts.batchRows);
    const ms = this.writeRate === null ? batches * this.opts.flushIntervalMs : this.expectedWaitMs(this.queuedRows);
    return Math.max(1, Math.ceil(ms / 1000));
  }

  /** Small writes are dominated by per-insert overhead and would understate the rate. */
  private recordWriteRate(rows: number, ms: number): void {
    if (rows < this.opts.batchRows / 4 || ms <= 0) return;
    const rate = (rows * 1000) / ms;
    this.writeRate = this.writeRate === null ? rate : 0.7 * this.writeRate + 0.3 * rate;
  }

  private schedule(): void {
    if (this.writing) return;
    if (this.queuedRows >= this.opts.batchRows) {
      void this.flush();
      return;
    }
    // A batch of an eighth of batchRows is large enough to be worth its own insert; smaller
    // ones wait out the flush interval. Either way the requests decoded in this turn of the
    // event loop join.
    const eager = this.queuedRows >= (this.opts.eagerRows ?? this.opts.batchRows / 8);
    const due = eager ? performance.now() : this.lastWriteStart + this.opts.flushIntervalMs;
    if (this.timer && this.timerDue <= due) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        void this.flush();
      },
      Math.max(0, due - performance.now()),
    );
  }

  private async flush(): Promise<void> {
    if (this.writing) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch: Pending<T>[] = [];
    let rowCount = 0;
    while (this.queue.length && (rowCount === 0 || rowCount + this.queue[0].rows <= this.opts.batchRows)) {
      const p = this.queue.shift()!;
      batch.push(p);
      rowCount += p.rows;
    }
    if (batch.length === 0) {
      this.notifyIdle();
      return;
    }
    this.writing = true;
    this.lastWriteStart = performance.now();
    const items = batch.length === 1 ? batch[0].items : batch.flatMap((p) => p.items);
    try {
      await this.opts.write(items);
      this.recordWriteRate(rowCount, performance.now() - this.lastWriteStart);
      this.stats.committedRows += rowCount;
      for (const p of batch) p.resolve();
    } catch (err) {
      this.stats.failedRows += rowCount;
      this.opts.onError?.(err, rowCount);
      for (const p of batch) p.reject(err);
    } finally {
      for (const p of batch) {
        this.queuedRows -= p.rows;
        this.queuedBytes -= p.bytes;
      }
      this.syncStats();
      this.writing = false;
    }
    if (this.queue.length) {
      if (this.closed || this.queuedRows >= this.opts.batchRows) void this.flush();
      else this.schedule();
    } else {
      this.notifyIdle();
    }
  }

  private notifyIdle(): void {
    if (this.queue.length || this.writing) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private syncStats(): void {
    this.stats.queuedRows = this.queuedRows;
    this.stats.queuedBytes = this.queuedBytes;
  }
}
