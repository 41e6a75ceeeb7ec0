// `npm run lint`: ESLint over the repo (eslint.config.js, type-aware rules over the tsconfig projects),
// then the count of errors and warnings. Exits 1 on any error or warning, so `npm test` fails with the rule's
// name. Results are cached under node_modules/.cache/eslint (by file content); the cache does not see a
// change in another file's types, so `--no-cache` (what a clean clone gets) re-checks everything.
//
// `--typecheck` (what `npm test` runs): first the type check of `npm run typecheck` (the three tsconfig
// programs, tsc's diagnostics), then ESLint's type-aware rules over those same programs instead of the
// project service's own: the checker's work is done once for both (284 -> 181 CPU-s, docs/benchmarks.md "Session 28").
import { join } from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { root } from './ensure.mjs';

const args = process.argv.slice(2);
const typecheck = args.includes('--typecheck');
// ESLint's cache keys its results by the config, which cannot hold the programs: with them, nothing is cached
// (the type check reads every file anyway, and the rules then find their types computed).
const cache = !args.includes('--no-cache') && !typecheck;
const fix = args.includes('--fix');
// `npm test` runs dependency-cruiser's no-cycles over the whole graph beside ESLint: there the file-by-file
// `import-x/no-cycle` (for editors; ~8 % of ESLint's time) would check the same cycles a second time.
const cyclesElsewhere = args.includes('--cycles-checked-by-layers');
const paths = args.filter((a) => !a.startsWith('--'));

/**
 * The programs `npm run typecheck` checks (package.json), as `tsc -p` builds them. The root one also holds
 * vitest.config.ts, which is in no tsconfig (the project service's default project for ESLint).
 */
const PROGRAMS = [['tsconfig.json', ['vitest.config.ts']], ['packages/web/tsconfig.json'], ['e2e/tsconfig.json']];

function program(tsconfig, extra = []) {
  const host = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(join(root, tsconfig), {}, host);
  return ts.createProgram({
    rootNames: [...parsed.fileNames, ...extra.map((f) => join(root, f))],
    options: parsed.options,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
}

const started = Date.now();
let programs = null;
if (typecheck) {
  programs = PROGRAMS.map(([tsconfig, extra]) => program(tsconfig, extra));
  const diagnostics = programs.flatMap((p) => ts.getPreEmitDiagnostics(p));
  if (diagnostics.length) {
    console.log(
      ts.formatDiagnosticsWithColorAndContext(diagnostics, {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => root,
        getNewLine: () => '\n',
      }),
    );
    console.log(`Types: ${diagnostics.length} errors`);
    process.exit(1);
  }
  console.log(`Types: no errors in ${PROGRAMS.length} programs (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

const overrides = [];
// Every TypeScript file is in one of the programs (typed rules need one); JavaScript gets no typed rules.
if (programs)
  overrides.push({
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { programs, projectService: false } },
  });
if (cyclesElsewhere) overrides.push({ rules: { 'import-x/no-cycle': 'off' } });
const eslint = new ESLint({
  cwd: root,
  cache,
  cacheLocation: 'node_modules/.cache/eslint/',
  cacheStrategy: 'content',
  fix,
  ...(overrides.length ? { overrideConfig: overrides } : {}),
});
const results = await eslint.lintFiles(paths.length ? paths : ['.']);
if (fix) await ESLint.outputFixes(results);
const formatter = await eslint.loadFormatter('stylish');
const text = await formatter.format(results);
if (text) console.log(text);
const errors = results.reduce((n, r) => n + r.errorCount, 0);
const warnings = results.reduce((n, r) => n + r.warningCount, 0);
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`ESLint: ${errors} errors, ${warnings} warnings in ${results.length} files (${seconds} s)`);
process.exit(errors || warnings ? 1 : 0);
