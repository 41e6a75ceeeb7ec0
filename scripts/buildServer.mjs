// The server as plain JavaScript: `npm start` and the test harness run packages/server/dist/<hash>/main.js,
// bundled by esbuild from packages/server/src (and packages/shared/src), instead of transpiling ~300
// TypeScript modules through tsx at every start (and again in each worker thread). The folder is named by
// a hash of the sources, so a bundle is never older than the code it claims to be, two processes building
// at once cannot tear each other's files (each builds into its own temp folder and renames it), and a run
// of an older checkout finds its own bundle. Run directly (`node scripts/buildServer.mjs`) it prints the
// path of the bundle's main.js.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SERVER = join(root, 'packages/server');
const OUT = join(SERVER, 'dist');
/** The bundle's entry points: the server and the modules its worker threads load (src/paths.ts). */
const ENTRIES = {
  main: 'src/main.ts',
  prepareWorker: 'src/ingest/prepareWorker.ts',
  prepareMetrics: 'src/metrics/ingest/prepareMetrics.ts',
  promWriteWire: 'src/metrics/ingest/promWriteWire.ts',
};
const KEEP = 3;

function sourceFiles(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist') continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) sourceFiles(p, out);
    else if (/\.(ts|tsx|mts|json)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

/** A hash of everything the bundle is made of: the sources, the manifests and this script. */
function sourceHash() {
  const h = createHash('sha256');
  const files = [
    ...sourceFiles(join(SERVER, 'src')),
    ...sourceFiles(join(root, 'packages/shared/src')),
    join(SERVER, 'package.json'),
    join(root, 'packages/shared/package.json'),
    fileURLToPath(import.meta.url),
  ].sort();
  for (const f of files) h.update(f).update('\0').update(readFileSync(f)).update('\0');
  return h.digest('hex').slice(0, 16);
}

/** Removes all but the newest KEEP bundles. */
function prune() {
  const dirs = readdirSync(OUT, { withFileTypes: true })
    .filter((e) => e.isDirectory() && /^[0-9a-f]{16}$/.test(e.name))
    .map((e) => ({ p: join(OUT, e.name), t: statSync(join(OUT, e.name)).mtimeMs }))
    .sort((a, b) => b.t - a.t);
  for (const d of dirs.slice(KEEP)) rmSync(d.p, { recursive: true, force: true });
}

/** The path of main.js of a bundle of the current sources, built first when there is none. */
export async function ensureServerBuild() {
  const dir = join(OUT, sourceHash());
  const main = join(dir, 'main.js');
  if (existsSync(main)) return main;
  const { build } = await import('esbuild');
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  await build({
    absWorkingDir: SERVER,
    entryPoints: ENTRIES,
    outdir: tmp,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    // npm packages stay in node_modules; the workspace's own TypeScript packages are bundled.
    plugins: [
      {
        name: 'external-packages',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@lantern/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  try {
    renameSync(tmp, dir);
  } catch (err) {
    // Another process finished the same bundle first: use theirs.
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(main)) throw err;
  }
  prune();
  return main;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(await ensureServerBuild());
