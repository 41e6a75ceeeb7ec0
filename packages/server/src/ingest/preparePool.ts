import { Piscina } from 'piscina';
import { FROM_SOURCE, workerModule } from '../paths';
import { QueueFullError } from './batcher';
import { prepare, type PrepareResult, type PrepareTask } from './prepare';

/**
 * Runs `prepare` (decode, normalise, encode) off the event loop on a pool of worker threads, so
 * HTTP, gRPC and the API keep answering while ingest is busy, and every core does ingest work
 * while the engine inserts. With `threads: 0` it runs inline on the event loop.
 */
export interface PreparePool {
  /**
   * Rejects with QueueFullError when the pool's own queue is full. A task's body that owns its
   * whole memory is moved to the thread, not copied (`movable`): the caller must not read it after.
   */
  run(task: PrepareTask): Promise<PrepareResult>;
  /** Another module's job on the same threads and limits (metrics ingest, see PoolJob). */
  runJob<T extends { body: Uint8Array }, R>(job: PoolJob<T, R>, task: T): Promise<R>;
  close(): Promise<void>;
}

/**
 * A job whose code lives outside ingest (metrics ingest's decode and mapping): `filename` is the
 * URL of a module whose default export runs it in a worker; `run` is the same function, used
 * inline with `threads: 0`.
 */
export interface PoolJob<T, R> {
  filename: string;
  run(task: T): R;
}

/** Runs a task on a thread: `filename` null for `prepare`, else a PoolJob's module. */
type RunOn = (task: { body: Uint8Array }, filename: string | null) => Promise<unknown>;

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
    return {
      run: async (task) => prepare(task),
      runJob: async (job, task) => job.run(task),
      close: async () => {},
    };
  }
  const pool = new Piscina<PrepareTask, PrepareResult>({
    filename: workerModule('ingest/prepareWorker.ts'),
    minThreads: opts.threads,
    maxThreads: opts.threads,
    idleTimeout: Infinity,
    // A request's decoded objects and rows live until it is encoded: with V8's default young
    // generation (16 MB semi-spaces) most of them survive a scavenge and are copied, promoted and
    // marked later. 64 MB semi-spaces let them die young (bench/ingest: about a quarter less
    // prepare CPU per span; docs/benchmarks.md). V8 commits the space only as it is used.
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    // From the sources the worker is TypeScript like the rest of the server: make sure it loads
    // with tsx even when the host process got its TypeScript support some other way (a test runner).
    execArgv:
      !FROM_SOURCE || process.execArgv.some((a) => a.includes('tsx'))
        ? process.execArgv
        : [...process.execArgv, '--import', 'tsx'],
  });
  return boundedPool(
    opts,
    (task, filename) =>
      pool.run(task as PrepareTask, { ...(filename ? { filename } : {}), transferList: movable(task.body) }),
    () => pool.destroy(),
  );
}

/**
 * The memory of a body that is all of its ArrayBuffer (a request body read whole, a decompressed
 * one), to move to the thread instead of copying it: a 226 kB remote write body cost the event loop
 * 90-240 µs cloned and 3 µs moved. A slice of shared memory (Node's buffer pool, a larger buffer)
 * is copied as before.
 */
export function movable(body: Uint8Array): ArrayBuffer[] | undefined {
  const memory = body.buffer;
  return memory instanceof ArrayBuffer &&
    body.byteOffset === 0 &&
    body.byteLength === memory.byteLength &&
    body.byteLength > 0
    ? [memory]
    : undefined;
}

/**
 * Bodies wait in the pool before the batcher's queue counts their rows, so the pool bounds them
 * itself, in bytes (memory) and in requests (the wait of the last one in line). A count alone
 * either refused requests that were cheap to hold (16 clients of 1,000-span requests met 429s
 * with four waiting per thread) or let a few large bodies hold far more memory than intended.
 */
export function boundedPool(
  limits: { maxBytes: number; maxRequests: number },
  runOn: RunOn,
  close: () => Promise<void>,
): PreparePool {
  let requests = 0;
  let bytes = 0;
  const bounded = async (task: { body: Uint8Array }, filename: string | null): Promise<unknown> => {
    const size = task.body.byteLength;
    if (requests > 0 && (requests >= limits.maxRequests || bytes + size > limits.maxBytes)) throw new QueueFullError(1);
    requests++;
    bytes += size;
    try {
      return await runOn(task, filename);
    } finally {
      requests--;
      bytes -= size;
    }
  };
  return {
    run: (task) => bounded(task, null) as Promise<PrepareResult>,
    runJob: <T extends { body: Uint8Array }, R>(job: PoolJob<T, R>, task: T) =>
      bounded(task, job.filename) as Promise<R>,
    close,
  };
}
