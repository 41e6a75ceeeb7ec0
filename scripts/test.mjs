// `npm test`: install what is missing (npm packages, Debian's chromium, postgresql and prometheus), check types,
// format, code rules and layers, build the web app and the server, then run unit, integration and browser tests
// with Vitest. At the end it prints how long each step took and the slowest test files (scripts/testTimes.mjs).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureServerBuild } from './buildServer.mjs';
import {
  ensureChromium,
  ensureDependencies,
  ensurePostgres,
  ensurePrometheus,
  root,
  webBuildNeeded,
} from './ensure.mjs';

/** Seconds each step took, in order; handed to the test-times reporter, which prints them at the end. */
const steps = [];
const timed = async (name, fn) => {
  const started = Date.now();
  await fn();
  steps.push([name, (Date.now() - started) / 1000]);
};

const running = new Set();

/**
 * Runs a command with its output held back and printed whole when it ends (two run side by side); the
 * first that fails ends the other and the run.
 */
function quietly(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code, signal) => {
      running.delete(child);
      if (out.trim()) process.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
      if (code !== 0) {
        console.error(`\n${cmd} ${args.join(' ')} failed (exit ${code ?? signal})`);
        for (const other of running) other.kill();
        process.exit(code || 1);
      }
      resolve();
    });
  });
}

/** A package's command, run directly (not through npx), so that ending it ends the work. */
const bin = (name) => join(root, 'node_modules/.bin', name);

/** Steps one after the other, each timed. */
const lane = async (list) => {
  for (const [name, cmd, args] of list) await timed(name, () => quietly(cmd, args));
};

await timed('install (npm, Debian packages)', () => {
  ensureDependencies();
  ensureChromium();
  ensurePostgres();
  ensurePrometheus();
});

// Two lanes on the two cores: the type checks and the builds | Prettier, ESLint and the layer rules.
const tsc = ['packages/shared', 'packages/server', 'packages/web', 'packages/testkit', 'e2e', 'bench'].map((p) => [
  `tsc -p ${p}`,
  bin('tsc'),
  ['-p', p],
]);
await Promise.all([
  lane([
    ...tsc,
    ...(webBuildNeeded() ? [['build the web app', 'npm', ['run', 'build', '-w', '@lantern/web']]] : []),
  ]).then(() => timed('build the server', ensureServerBuild)),
  lane([
    // One format for the repo (.prettierrc.json): `npm run format` fixes what this refuses.
    ['prettier', bin('prettier'), ['--check', '--log-level', 'warn', '.']],
    // ESLint (eslint.config.js): any error or warning fails with the rule's name; `npm run lint` is the same check.
    ['eslint', process.execPath, ['scripts/lint.mjs']],
    // The layers and no import cycles (.dependency-cruiser.cjs): a violation fails with the rule's name.
    [
      'layers (dependency-cruiser)',
      bin('depcruise'),
      ['packages', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'],
    ],
  ]),
]);

const vitest = spawn(
  bin('vitest'),
  ['run', '--reporter=default', '--reporter=./scripts/testTimes.mjs', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: { ...process.env, LANTERN_TEST_STEPS: JSON.stringify(steps) } },
);
vitest.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
