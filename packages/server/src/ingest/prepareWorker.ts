// Worker-thread entry of the prepare pool (preparePool.ts). The modules of the pool's other jobs
// (PreparePoolOptions.preload) are loaded as the thread starts.
import { workerData } from 'node:worker_threads';

for (const module of (workerData as { preload?: string[] } | undefined)?.preload ?? []) await import(module);

export { prepare as default } from './prepare';
