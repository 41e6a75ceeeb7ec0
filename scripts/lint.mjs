// `npm run lint`: ESLint over the repo (eslint.config.js, type-aware rules over the tsconfig projects),
// then the count of errors and warnings. Exits 1 on any error or warning, so `npm test` fails with the rule's
// name. Results are cached under node_modules/.cache/eslint (by file content); the cache does not see a
// change in another file's types, so `--no-cache` (what a clean clone gets) re-checks everything.
import { ESLint } from 'eslint';
import { root } from './ensure.mjs';

const args = process.argv.slice(2);
const cache = !args.includes('--no-cache');
const fix = args.includes('--fix');
// `npm test` runs dependency-cruiser's no-cycles over the whole graph beside ESLint: there the file-by-file
// `import-x/no-cycle` (for editors; ~8 % of ESLint's time) would check the same cycles a second time.
const cyclesElsewhere = args.includes('--cycles-checked-by-layers');
const paths = args.filter((a) => !a.startsWith('--'));

const started = Date.now();
const eslint = new ESLint({
  cwd: root,
  cache,
  cacheLocation: 'node_modules/.cache/eslint/',
  cacheStrategy: 'content',
  fix,
  ...(cyclesElsewhere ? { overrideConfig: { rules: { 'import-x/no-cycle': 'off' } } } : {}),
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
