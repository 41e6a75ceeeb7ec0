/**
 * The layers, checked by `npm test` before the tests (docs/architecture.md, "Layers"):
 * ingest -> storage <- tracing / metrics / alerting / dashboards <- http <- web.
 * A violation fails the run with the rule's name.
 */
const DOMAINS = 'ingest|tracing|metrics|metricsFromSpans|alerting|dashboards|auth|projects|demo';
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment:
        'Import cycles make the order of module evaluation matter; move the shared part to a module both sides import.',
      from: { path: '^packages/' },
      to: { circular: true },
    },
    {
      name: 'storage-imports-no-domain',
      severity: 'error',
      comment: 'storage/ is the lowest layer: it defines the rows it stores; the domains import it, never the reverse.',
      from: { path: '^packages/server/src/storage/' },
      to: { path: `^packages/server/src/(${DOMAINS}|http|app)/` },
    },
    {
      name: 'web-imports-no-server',
      severity: 'error',
      comment: 'The web app talks to the server over HTTP only; shared contracts live in packages/shared.',
      from: { path: '^packages/web/' },
      to: { path: '^packages/server/' },
    },
    {
      name: 'shared-imports-nothing-of-ours',
      severity: 'error',
      comment: 'packages/shared is imported by the server and the web app; it imports neither.',
      from: { path: '^packages/shared/' },
      to: { path: '^packages/(server|web)/' },
    },
    {
      name: 'domains-through-their-index',
      severity: 'error',
      comment: "A domain reaches another domain through that domain's index.ts only.",
      from: { path: `^packages/server/src/(${DOMAINS})/`, pathNot: '\\.test\\.ts$' },
      to: {
        path: `^packages/server/src/(${DOMAINS})/.+`,
        pathNot: [`^packages/server/src/$1/`, `^packages/server/src/(${DOMAINS})/index\\.ts$`],
      },
    },
    {
      name: 'production-imports-no-testkit',
      severity: 'error',
      comment:
        'packages/testkit holds test fixtures (server harness, OTel senders, page objects); only tests, benchmarks and the kit itself import it.',
      // Test-only helpers next to their tests (authTestServer.ts, tracingFixtures.ts) are tests too.
      from: { path: '^packages/(shared|server|web)/', pathNot: '(\\.test\\.tsx?|TestServer\\.ts|Fixtures\\.ts)$' },
      to: { path: '^packages/testkit/' },
    },
    {
      name: 'testkit-imports-server-and-shared-only',
      severity: 'error',
      comment:
        'The test kit drives the server from outside (and reads its storage); it never reaches into the web app.',
      from: { path: '^packages/testkit/' },
      to: { path: '^packages/web/' },
    },
    {
      name: 'tests-import-no-e2e',
      severity: 'error',
      comment: 'Fixtures shared by tests live in @lantern/testkit; e2e/ holds only the browser tests.',
      from: { path: '^(packages|bench)/' },
      to: { path: '^e2e/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Tests are cruised too: they may not import e2e/, and production code may not import them.
    exclude: { path: '(node_modules|dist)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs'],
      // Workspace packages (@lantern/shared, @lantern/testkit/<module>) resolve through their
      // package.json `exports` to their sources, so rules see imports between packages too.
      exportsFields: ['exports'],
      conditionNames: ['import', 'default'],
    },
  },
};
