// `npm test`: install what is missing (npm packages, Debian's chromium, postgresql and prometheus), build the
// web app and the server, then run Vitest's unit, integration and browser tests while the static checks (types,
// format, code rules, layers) run beside them at a lower CPU priority. The tests leave some CPU idle (waiting on
// a server's minute, a page, a poll); the checks take it: a clean-clone run took 1,562 s this way against
// ~1,620 s with the checks first (docs/benchmarks.md, "Test suite"). The first failure, of a check or of Vitest,
// ends the run. At the end it prints how long each step took and the slowest test files (scripts/testTimes.mjs).
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { ensureServerBuild } from './buildServer.mjs';
import { ensureTestDependencies, root, webBuildNeeded } from './ensure.mjs';
import { recordSteps } from './testTimes.mjs';

const started = Date.now();
/** Seconds each step took, in order; printed and recorded at the end (scripts/testTimes.mjs). */
const steps = [];
const timed = async (name, fn) => {
  const t = Date.now();
  await fn();
  steps.push([name, (Date.now() - t) / 1000]);
};

/** Every process group still running: the first failure, or Ctrl-C, ends them all. */
const running = new Set();
const endAll = (code) => {
  for (const child of running) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  process.exit(code);
};
process.on('SIGINT', () => endAll(130));
process.on('SIGTERM', () => endAll(143));

/**
 * Runs a command in its own process group (so that ending it ends what it started), with its output held
 * back and printed whole when it ends unless `inherit`; `nice` lowers its CPU priority. A failure ends the run.
 */
function run(cmd, args, { inherit = false, nice = 0 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      detached: true,
      stdio: ['ignore', inherit ? 'inherit' : 'pipe', inherit ? 'inherit' : 'pipe'],
    });
    running.add(child);
    if (nice) setPriority(child.pid, nice);
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    child.on('close', (code, signal) => {
      running.delete(child);
      if (out.trim()) process.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
      if (code !== 0) {
        console.error(`\n${cmd} ${args.join(' ')} failed (exit ${code ?? signal})`);
        endAll(code || 1);
      }
      resolve();
    });
  });
}

/** A package's command, run directly (not through npx), so that ending it ends the work. */
const bin = (name) => join(root, 'node_modules/.bin', name);

/** Steps one after the other, each timed. */
const lane = async (list, options) => {
  for (const [name, cmd, args] of list) await timed(name, () => run(cmd, args, options));
};

await timed('install (npm, Debian packages)', ensureTestDependencies);

// What the tests run: the web app's bundle (browser tests) and the server's (every server a test starts).
await Promise.all([
  webBuildNeeded() ? timed('build the web app', () => run('npm', ['run', 'build', '-w', '@lantern/web'])) : null,
  timed('build the server', ensureServerBuild),
]);

// The static checks in two lanes, niced: they use the CPU the tests leave idle and give it back when a test
// needs it (a test's timing matters; a check's does not). Types and ESLint | Prettier, the layer rules.
const NICE = 10;
const checks = Promise.all([
  // `npm run typecheck` and `npm run lint` in one process (scripts/lint.mjs --typecheck): the three programs
  // (tsconfig.json: shared, server, bench; the web app; the browser tests with their kit) are type-checked,
  // then ESLint's type-aware rules read the same programs, so the checker's work is done once for both.
  // Without `import-x/no-cycle`: the layers step checks the same cycles over the whole graph.
  lane([['types and ESLint', process.execPath, ['scripts/lint.mjs', '--typecheck', '--cycles-checked-by-layers']]], {
    nice: NICE,
  }),
  lane(
    [
      // One format for the repo (.prettierrc.json): `npm run format` fixes what this refuses.
      ['prettier', bin('prettier'), ['--check', '--log-level', 'warn', '.']],
      // The layers and no import cycles (.dependency-cruiser.cjs): a violation fails with the rule's name.
      [
        'layers (dependency-cruiser)',
        bin('depcruise'),
        ['packages', 'bench', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'],
      ],
    ],
    { nice: NICE },
  ),
]);

const tests = timed('vitest', () =>
  run(bin('vitest'), ['run', '--reporter=default', '--reporter=./scripts/testTimes.mjs', ...process.argv.slice(2)], {
    inherit: true,
  }),
);

await Promise.all([checks, tests]);
recordSteps(steps, (Date.now() - started) / 1000);
