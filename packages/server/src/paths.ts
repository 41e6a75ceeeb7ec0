/**
 * Where the server's own files are, whether it runs from its TypeScript sources (tsx, Vitest) or
 * from the bundle `scripts/buildServer.mjs` makes (packages/server/dist/<hash>/, what `npm start`
 * and the test harness run): the bundle moves this module into a chunk two folders down.
 */
export const FROM_SOURCE = import.meta.url.endsWith('.ts');

/** The server package's folder (packages/server/). */
export const SERVER_ROOT = new URL(FROM_SOURCE ? '../' : '../../', import.meta.url);

/**
 * A worker thread's entry module, `src/<sourcePath>` from the sources or the bundle's entry of the
 * same name (ENTRIES in scripts/buildServer.mjs), which sits next to this chunk.
 */
export function workerModule(sourcePath: string): string {
  if (FROM_SOURCE) return new URL(`src/${sourcePath}`, SERVER_ROOT).href;
  const name = sourcePath.replace(/^.*\//, '').replace(/\.ts$/, '');
  return new URL(`./${name}.js`, import.meta.url).href;
}
