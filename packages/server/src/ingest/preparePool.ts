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

/** Three 64 MB semi-spaces' worth: V8 sizes a semi-space as a third of the young generation. */
const YOUNG_GENERATION_MB = 192;

export interface PreparePoolOptions {
  threads: number;
  /**
   * Most request-body bytes in the pool (running and waiting) before requests are refused with
   * QueueFullError. A body gets in whatever its size when the pool is empty.
   */
  maxBytes: number;
  /** Most requests in the pool (running and waiting). */
  maxRequests: number;
}

export function createPreparePool(opts: PreparePoolOptions): PreparePool {
  if (opts.threads === 0) {
    return { run: async (task) => prepare(task), close: async () => {} };
  }
  const pool = new Piscina<PrepareTask, PrepareResult>({
    filename: new URL('./prepareWorker.ts', import.meta.url).href,
    minThreads: opts.threads,
    maxThreads: opts.threads,
    idleTimeout: Infinity,
    // A request's decoded objects and rows live until it is encoded: with V8's default young
    // generation (16 MB semi-spaces) most of them survive a scavenge and are copied, promoted and
    // marked later. 64 MB semi-spaces let them die young (bench/ingest: about a quarter less
    // prepare CPU per span; docs/benchmarks.md). V8 commits the space only as it is used.
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    // The worker is TypeScript like the rest of the server: make sure it loads with tsx even
    // when the host process got its TypeScript support some other way (a test runner).
    execArgv: process.execArgv.some((a) => a.includes('tsx'))
      ? process.execArgv
      : [...process.execArgv, '--import', 'tsx'],
  });
  return boundedPool(
    opts,
    (task) => pool.run(task),
    () => pool.destroy(),
  );
}

/**
 * Bodies wait in the pool before the batcher's queue counts their rows, so the pool bounds them
 * itself, in bytes (memory) and in requests (the wait of the last one in line). A count alone
 * either refused requests that were cheap to hold (16 clients of 1,000-span requests met 429s
 * with four waiting per thread) or let a few large bodies hold far more memory than intended.
 */
export function boundedPool(
  limits: { maxBytes: number; maxRequests: number },
  run: (task: PrepareTask) => Promise<PrepareResult>,
  close: () => Promise<void>,
): PreparePool {
  let requests = 0;
  let bytes = 0;
  return {
    async run(task) {
      const size = task.body.byteLength;
      if (requests > 0 && (requests >= limits.maxRequests || bytes + size > limits.maxBytes))
        throw new QueueFullError(1);
      requests++;
      bytes += size;
      try {
        return await run(task);
      } finally {
        requests--;
        bytes -= size;
      }
    },
    close,
  };
}
