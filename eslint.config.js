// ESLint for the whole repo (`npm run lint`; `npm test` runs it before the tests). Type-aware rules use the
// five tsconfig projects (packages/shared, packages/server, packages/web, e2e, bench) through the project
// service. Formatting is Prettier's (.prettierrc.json): eslint-config-prettier turns off every style rule.
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
