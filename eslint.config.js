// ESLint for the whole repo (`npm run lint`; `npm test` runs it beside the tests). Type-aware rules see each
// file through the nearest tsconfig project (tsconfig.json for shared, server and bench; packages/web;
// packages/testkit; e2e) via the project service. Formatting is Prettier's (.prettierrc.json): eslint-config-prettier turns off every style rule.
// The layer rules are dependency-cruiser's (.dependency-cruiser.cjs); docs/architecture.md lists both.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: [
      '**/node_modules/',
      '**/dist/',
      '**/data/',
      '**/.vite/',
      'bench/results/',
      'test-results/',
      'e2e/screenshots/',
      '.lantern-test/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // vitest.config.ts is in no tsconfig project: it gets the default one.
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A leading underscore names what is unused on purpose (a parameter a signature requires, a field
      // dropped from a rest copy: `const { id: _id, ...rest } = row`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Off: an async function without await is how this code meets a Promise-returning contract (Fastify
      // async handlers and hooks, Kysely's MigrationProvider, the store interfaces, fakes in tests);
      // `return Promise.resolve(x)` says the same less plainly. Dropped promises are no-floating-promises' and
      // no-misused-promises' to find.
      '@typescript-eslint/require-await': 'off',
      // URLSearchParams (Node's global, not lib's) prints as a query string, which is what the templates want.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        {
          allow: [
            { name: ['Error', 'URL', 'URLSearchParams'], from: 'lib' },
            { name: ['URLSearchParams'], from: 'package', package: 'url' },
          ],
        },
      ],
    },
  },
  {
    plugins: { 'import-x': importX },
    settings: {
      // Imports are extensionless (moduleResolution Bundler); @lantern/shared resolves through the workspace link.
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    rules: {
      // dependency-cruiser's no-cycles checks the same over the whole graph; this one shows the cycle in the editor.
      'import-x/no-cycle': 'error',
    },
  },
  {
    ...reactHooks.configs.flat.recommended,
    files: ['packages/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      // Off: relative times ("5 minutes ago", an alert's age) are drawn against Date.now() at render on purpose,
      // so each re-render shows the current age. The rule guards React Compiler's memoization, which this app
      // does not use; the other compiler rules (refs, set-state-in-effect, immutability...) stay on.
      'react-hooks/purity': 'off',
    },
  },
  {
    // Tests and benches read the real server's JSON back (`res.json()` is `any`) and check it with expect():
    // the assertion is the check of its shape, and a wrong shape fails the test. Declaring a type for every
    // body would restate the contract the test exists to check, so the no-unsafe-* rules are off here and
    // stay on in the product code.
    files: ['**/*.test.{ts,tsx}', 'e2e/**', 'bench/**', 'packages/testkit/**', '**/*TestServer.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    ...tseslint.configs.disableTypeChecked,
    files: ['**/*.{js,mjs,cjs}'],
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
  prettier,
);
