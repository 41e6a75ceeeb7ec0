/**
 * The layers, checked by `npm test` before the tests (docs/architecture.md, "Layers"):
 * ingest -> storage <- tracing / metrics / alerting / dashboards <- http <- web.
 * A violation fails the run with the rule's name.
 */
const DOMAINS = 'ingest|tracing|metrics|alerting|dashboards|auth|projects|demo';
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
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(node_modules|dist|\\.test\\.tsx?$)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
