// A Vitest reporter (scripts/test.mjs adds it): at the end of the run it prints Vitest's wall time, each
// project's file time, and the 15 slowest test files, each beside its time in the recorded baseline
// (scripts/testTimes.baseline.json), so a file or project that grew shows at every run; scripts/test.mjs then
// adds the time of each step (install, builds, static checks, Vitest) and of the whole run (`recordSteps`). The whole run must stay under 25 minutes on CI's 2-core machine (docs/benchmarks.md,
// "Test suite"). The run's times are written to node_modules/.cache/lantern-test-times.json; copy them over
// the baseline when a change that slows the suite on purpose lands.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const BASELINE = join(root, 'scripts/testTimes.baseline.json');
const CURRENT = join(root, 'node_modules/.cache/lantern-test-times.json');
const SLOWEST = 15;

const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};
const secs = (s) => `${s.toFixed(1)} s`.padStart(9);
const delta = (now, before) => {
  if (before === undefined) return '   (new)';
  const d = now - before;
  const pct = before > 0 ? Math.round((d / before) * 100) : 0;
  return `${d >= 0 ? '+' : '-'}${Math.abs(d).toFixed(1)} s (${pct >= 0 ? '+' : ''}${pct}%)`.padStart(18);
};

export default class TestTimesReporter {
  started = Date.now();

  onTestRunEnd(testModules) {
    const files = testModules.map((m) => {
      const d = m.diagnostic();
      return {
        key: `${m.project.name} ${relative(root, m.moduleId)}`,
        seconds:
          (d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration) / 1000,
      };
    });
    const projects = {};
    for (const f of files) {
      const project = f.key.split(' ')[0];
      projects[project] = (projects[project] ?? 0) + f.seconds;
    }
    const current = {
      vitestWall: (Date.now() - this.started) / 1000,
      projects,
      files: Object.fromEntries(files.map((f) => [f.key, Math.round(f.seconds * 10) / 10])),
    };
    const baseline = readBaseline();
    const out = [
      '',
      `${'Vitest (wall)'.padEnd(36)}${secs(current.vitestWall)}${delta(current.vitestWall, baseline.vitestWall)}`,
    ];
    out.push('File time per project (files of a project run one at a time):');
    for (const [name, s] of Object.entries(projects).sort((a, b) => b[1] - a[1]))
      out.push(`  ${name.padEnd(34)}${secs(s)}${delta(s, baseline.projects[name])}`);
    out.push(`The ${SLOWEST} slowest test files:`);
    for (const f of [...files].sort((a, b) => b.seconds - a.seconds).slice(0, SLOWEST))
      out.push(`  ${f.key.padEnd(70)}${secs(f.seconds)}${delta(f.seconds, baseline.files[f.key])}`);
    console.log(out.join('\n'));
    writeCurrent(current);
  }
}

const readBaseline = () => readJson(BASELINE) ?? { steps: {}, projects: {}, files: {} };

function writeCurrent(current) {
  try {
    mkdirSync(dirname(CURRENT), { recursive: true });
    writeFileSync(CURRENT, `${JSON.stringify(current, null, 2)}\n`);
  } catch {
    // a read-only checkout: the summary printed is what counts
  }
}

/**
 * scripts/test.mjs, once everything ended: prints each step's time (the static checks ran beside Vitest, so
 * the steps overlap) and the whole run's, beside the baseline, and adds them to the run's recorded times.
 */
export function recordSteps(steps, wall) {
  const baseline = readBaseline();
  const out = ['', 'Time per step (the static checks run beside Vitest; beside the baseline):'];
  for (const [name, s] of steps) out.push(`  ${name.padEnd(34)}${secs(s)}${delta(s, baseline.steps?.[name])}`);
  out.push(`  ${'the whole run (wall)'.padEnd(34)}${secs(wall)}${delta(wall, baseline.wall)}`);
  console.log(out.join('\n'));
  writeCurrent({ steps: Object.fromEntries(steps), wall, ...(readJson(CURRENT) ?? {}) });
}
