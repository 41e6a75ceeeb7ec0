// Worker-thread entry of the prepare pool (preparePool.ts).
export { prepare as default } from './prepare';
