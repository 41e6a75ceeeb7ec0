// Install and build steps shared by `npm start` and `npm test`, so a fresh clone on a fresh
// machine needs nothing but Node and npm. Uses only Node built-ins: it runs before node_modules exists.
import { spawnSync } from 'node:child_process';
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

/** npm install when node_modules is missing or older than package-lock.json / a package.json. */
export function ensureDependencies() {
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
  const stale =
    !existsSync(marker) ||
    manifests.some((m) => existsSync(join(root, m)) && statSync(join(root, m)).mtimeMs > statSync(marker).mtimeMs);
  if (!stale) return;
  console.log('Installing dependencies (npm install)...');
  run('npm', ['install', '--no-audit', '--no-fund']);
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

/** Debian packages for the tests, installed with apt-get when `present()` is false (CI runs as root). */
function ensureDebian(what, present, packages) {
  if (present()) return;
  if (process.getuid?.() !== 0) {
    console.error(`${what}: run \`sudo apt-get install -y ${packages.join(' ')}\` and retry.`);
    process.exit(1);
  }
  console.log(`Installing ${packages.join(', ')} (apt-get)...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-q'], { env });
  run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...packages], { env });
}

/** Debian's chromium for the browser tests. */
export function ensureChromium() {
  ensureDebian('Browser tests need /usr/bin/chromium', () => existsSync('/usr/bin/chromium'), [
    'chromium',
    'fonts-liberation',
  ]);
}

/** Debian's Prometheus (2.42): the remote write test scrapes a target with it and writes into Lantern. */
export function ensurePrometheus() {
  ensureDebian('The remote write test needs /usr/bin/prometheus', () => existsSync('/usr/bin/prometheus'), [
    'prometheus',
  ]);
}

/**
 * Debian's PostgreSQL server binaries: the metadata tests run over SQLite and over a throwaway
 * PostgreSQL cluster that the test run starts itself (packages/testkit/src/globalSetup.ts). Not needed when
 * LANTERN_TEST_PG_URL names a server.
 */
export function ensurePostgres() {
  if (process.env.LANTERN_TEST_PG_URL) return;
  const present = () =>
    existsSync('/usr/lib/postgresql') &&
    readdirSync('/usr/lib/postgresql').some((v) => existsSync(join('/usr/lib/postgresql', v, 'bin', 'initdb')));
  ensureDebian('The metadata tests need PostgreSQL server binaries (/usr/lib/postgresql/*/bin)', present, [
    'postgresql',
  ]);
}
