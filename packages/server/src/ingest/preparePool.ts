import { Piscina } from 'piscina';
import { QueueFullError } from './batcher';
import { prepare, type PrepareResult, type PrepareTask } from './prepare';

/**
 * Runs `prepare` (decode, normalise, encode) off the event loop on a pool of worker threads, so
 * HTTP, gRPC and the API keep answering while ingest is busy, and every core does ingest work
 * while the engine inserts. With `threads: 0` it runs inline on the event loop.
 */
export interface PreparePool {
  /** Rejects with QueueFullError when the pool's own queue is full. */
  run(task: PrepareTask): Promise<PrepareResult>;
  close(): Promise<void>;
}

export function createPreparePool(opts: { threads: number }): PreparePool {
  if (opts.threads === 0) {
    return { run: async (task) => prepare(task), close: async () => {} };
  }
  // Bodies wait here before the batcher's queue counts them: keep this queue short.
  const maxQueue = opts.threads * 4;
  const pool = new Piscina<PrepareTask, PrepareResult>({
    filename: new URL('./prepareWorker.ts', import.meta.url).href,
    minThreads: opts.threads,
    maxThreads: opts.threads,
    maxQueue,
    idleTimeout: Infinity,
    // The worker is TypeScript like the rest of the server: make sure it loads with tsx even
    // when the host process got its TypeScript support some other way (a test runner).
    execArgv: process.execArgv.some((a) => a.includes('tsx')) ? process.execArgv : [...process.execArgv, '--import', 'tsx'],
  });
  return {
    async run(task) {
      if (pool.queueSize >= maxQueue) throw new QueueFullError(1);
      return pool.run(task);
    },
    close: () => pool.destroy(),
  };
}
