// The server as plain JavaScript: `npm start` and the test harness run packages/server/dist/<hash>/main.js,
// bundled by esbuild from packages/server/src (and packages/shared/src), instead of transpiling ~300
// TypeScript modules through tsx at every start (and again in each worker thread). The folder is named by
// a hash of the sources and the lock file, so a bundle is never older than the code it claims to be, two
// processes building at once cannot tear each other's files (each builds into its own temp folder and
// renames it), and a run of an older checkout finds its own bundle. Run directly
// (`node scripts/buildServer.mjs`) it prints the path of the bundle's main.js.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SERVER = join(root, 'packages/server');
const OUT = join(SERVER, 'dist');
/** The server's entry point. */
const MAIN = { main: 'src/main.ts' };
/** The modules its worker threads load (src/paths.ts), bundled apart from the server (see build()). */
const WORKER_ENTRIES = {
  prepareWorker: 'src/ingest/prepareWorker.ts',
  prepareMetrics: 'src/metrics/ingest/prepareMetrics.ts',
  promWriteWire: 'src/metrics/ingest/promWriteWire.ts',
};
/**
 * npm packages the server's bundle leaves in node_modules; every other one is bundled in. A package
 * loaded from node_modules is ~100-300 files the ESM/CommonJS loaders resolve, read and compile one by
 * one (kysely 279, zod, fastify and its dependencies): loading them was ~0.6 CPU-s of each start. Left
 * out: native addons (chdb, better-sqlite3, snappy and their loaders), packages that find their own
 * files by path at run time (piscina's worker script, swagger-ui-dist's assets, the OpenTelemetry
 * proto descriptors, protobufjs's optional requires, grpc-js), and the two stores' clients, which the
 * server loads only when configured (pg, @clickhouse/client).
 */
const EXTERNAL = new Set([
  'chdb',
  'better-sqlite3',
  'snappy',
  'lz4-napi',
  'zstd-codec',
  'piscina',
  'swagger-ui-dist',
  'protobufjs',
  '@grpc/grpc-js',
  '@opentelemetry/otlp-proto-exporter-base',
  'pg',
  '@clickhouse/client',
]);
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
    // The bundled npm packages are the lock file's versions.
    join(root, 'package-lock.json'),
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

/** The name of an npm package from an import path (`@scope/name/sub` -> `@scope/name`). */
const packageOf = (path) =>
  path
    .split('/')
    .slice(0, path.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * Bare imports: the workspace's own TypeScript is bundled; npm packages in `bundled` too, the others
 * stay in node_modules.
 */
const externals = (bundled) => ({
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@lantern/') || (bundled(packageOf(args.path)) && !args.path.startsWith('node:'))
        ? undefined
        : { path: args.path, external: true },
    );
  },
});

/**
 * The workspace's own modules have no side effects on import (none is imported for them; checked by
 * the tests, which run the bundle): esbuild may then leave out a module whose exports an entry does
 * not use, with the npm packages it imports.
 */
const ownModulesPure = {
  name: 'own-modules-pure',
  setup(b) {
    b.onResolve({ filter: /^\.{1,2}\/|^@lantern\// }, async (args) => {
      if (args.pluginData === 'pure') return undefined;
      const r = await b.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'pure',
      });
      if (r.errors.length || r.external || r.path.includes('/node_modules/'))
        return r.errors.length ? { errors: r.errors } : undefined;
      return { path: r.path, sideEffects: false };
    });
  },
};

async function build(outdir) {
  const { build: esbuild } = await import('esbuild');
  const common = {
    absWorkingDir: SERVER,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  };
  // The server, with the npm packages bundled in: CommonJS ones among them `require` Node's modules,
  // which an ES module gets from createRequire.
  await esbuild({
    ...common,
    entryPoints: MAIN,
    banner: {
      js: "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);",
    },
    plugins: [externals((pkg) => !EXTERNAL.has(pkg))],
  });
  // The worker threads' entries in a build of their own, every npm package left in node_modules: in
  // one build with the server they shared its chunks, and a prepare thread loaded the storage, gRPC
  // and ClickHouse client modules of the server's side (~0.3 CPU-s a thread). Their own modules
  // marked pure, a thread loads only what preparing a request uses.
  await esbuild({
    ...common,
    entryPoints: WORKER_ENTRIES,
    entryNames: '[name]',
    chunkNames: 'worker-[name]-[hash]',
    plugins: [ownModulesPure, externals(() => false)],
  });
}

/** The path of main.js of a bundle of the current sources, built first when there is none. */
export async function ensureServerBuild() {
  const dir = join(OUT, sourceHash());
  const main = join(dir, 'main.js');
  if (existsSync(main)) return main;
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  await build(tmp);
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
