// Install and build steps shared by `npm start` and `npm test`, so a fresh clone on a fresh
// machine needs nothing but Node and npm. Uses only Node built-ins: it runs before node_modules exists.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const root = new URL('..', import.meta.url).pathname;

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  if (r.status !== 0) {
    console.error(`\n${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status || 1);
  }
}

function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Whether node_modules is missing or older than package-lock.json / a package.json. */
function dependenciesStale() {
  const marker = join(root, 'node_modules/.package-lock.json');
  const manifests = [
    'package.json',
    'package-lock.json',
    'packages/shared/package.json',
    'packages/server/package.json',
    'packages/web/package.json',
    'e2e/package.json',
    'packages/testkit/package.json',
    'bench/package.json',
  ];
  return (
    !existsSync(marker) ||
    manifests.some((m) => existsSync(join(root, m)) && statSync(join(root, m)).mtimeMs > statSync(marker).mtimeMs)
  );
}

const npmInstall = () => {
  console.log('Installing dependencies (npm install)...');
  return runAsync('npm', ['install', '--no-audit', '--no-fund']);
};

/** npm install when node_modules is missing or older than package-lock.json / a package.json. */
export async function ensureDependencies() {
  if (dependenciesStale()) await npmInstall();
}

/** Whether the web app's bundle is missing or older than its sources. */
export function webBuildNeeded() {
  const index = join(root, 'packages/web/dist/index.html');
  const sources = Math.max(newestMtime(join(root, 'packages/web')), newestMtime(join(root, 'packages/shared/src')));
  return !existsSync(index) || statSync(index).mtimeMs < sources;
}

/** Builds the web app when its bundle is missing or older than its sources. */
export function ensureWebBuild() {
  if (!webBuildNeeded()) return;
  console.log('Building the web app...');
  run('npm', ['run', 'build', '-w', '@lantern/web']);
}

/**
 * Debian packages the tests need, each with how to tell it is there: Chromium for the browser tests, PostgreSQL's
 * server binaries for the metadata tests over PostgreSQL (a throwaway cluster the run starts itself,
 * packages/testkit/src/globalSetup.ts; not needed when LANTERN_TEST_PG_URL names a server), Prometheus 2.42 for the
 * remote write test (it scrapes a target and writes into Lantern).
 */
const TEST_PACKAGES = [
  {
    what: 'Browser tests need /usr/bin/chromium',
    present: () => existsSync('/usr/bin/chromium'),
    packages: ['chromium', 'fonts-liberation'],
  },
  {
    what: 'The metadata tests need PostgreSQL server binaries (/usr/lib/postgresql/*/bin)',
    present: () =>
      !!process.env.LANTERN_TEST_PG_URL ||
      (existsSync('/usr/lib/postgresql') &&
        readdirSync('/usr/lib/postgresql').some((v) => existsSync(join('/usr/lib/postgresql', v, 'bin', 'initdb')))),
    packages: ['postgresql'],
  },
  {
    what: 'The remote write test needs /usr/bin/prometheus',
    present: () => existsSync('/usr/bin/prometheus'),
    packages: ['prometheus'],
  },
];

/** A command's run as a promise; a failure ends the process with its exit code. */
function runAsync(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
    child.on('close', (code, signal) => {
      if (code !== 0) {
        console.error(`\n${cmd} ${args.join(' ')} failed (exit ${code ?? signal})`);
        process.exit(code || 1);
      }
      resolve();
    });
  });
}

/** The missing test packages, with one `apt-get update` and one install for all of them (CI runs as root). */
async function ensureTestPackages() {
  const missing = TEST_PACKAGES.filter((p) => !p.present());
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    for (const p of missing)
      console.error(`${p.what}: run \`sudo apt-get install -y ${p.packages.join(' ')}\` and retry.`);
    process.exit(1);
  }
  const packages = missing.flatMap((p) => p.packages);
  console.log(`Installing ${packages.join(', ')} (apt-get)...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await runAsync('apt-get', ['update', '-q'], { env });
  await runAsync('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...packages], { env });
}

/** What `npm test` needs installed: the npm packages and the Debian ones, side by side (network and disk, not CPU). */
export async function ensureTestDependencies() {
  await Promise.all([dependenciesStale() ? npmInstall() : null, ensureTestPackages()]);
}
