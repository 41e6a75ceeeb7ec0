// `npm test`: install what is missing (npm packages, Debian's chromium, postgresql and prometheus), typecheck, build the web
// app, then run unit, integration and browser tests with Vitest.
import {
  ensureChromium,
  ensureDependencies,
  ensurePostgres,
  ensurePrometheus,
  ensureWebBuild,
  run,
} from './ensure.mjs';

ensureDependencies();
ensureChromium();
ensurePostgres();
ensurePrometheus();
for (const project of ['packages/shared', 'packages/server', 'packages/web', 'packages/testkit', 'e2e', 'bench'])
  run('npx', ['tsc', '-p', project]);
// One format for the repo (.prettierrc.json): `npm run format` fixes what this refuses.
run('npx', ['prettier', '--check', '--log-level', 'warn', '.']);
// ESLint (eslint.config.js): any error or warning fails with the rule's name; `npm run lint` is the same check.
run('node', ['scripts/lint.mjs']);
// The layers and no import cycles (.dependency-cruiser.cjs): a violation fails with the rule's name.
run('npx', ['depcruise', 'packages', '--config', '.dependency-cruiser.cjs', '--output-type', 'err']);
ensureWebBuild();
run('npx', ['vitest', 'run', ...process.argv.slice(2)]);
