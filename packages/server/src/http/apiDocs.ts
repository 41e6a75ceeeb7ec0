import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { API_ROUTES, routePath, systemRoutes, type AnyRouteContract } from '@lantern/shared';
import type { FastifyInstance } from 'fastify';
import { AppError } from './appError';
import { buildOpenApi, type OpenApiOptions } from './openapi';
import { registerRawRoute, registerRoute } from './routes';

const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
/** The files of swagger-ui-dist the page loads, and their types. Nothing else is served. */
const ASSETS: Record<string, { file: string; type: string }> = {
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
};

const asset = (file: string) => routePath(systemRoutes.apiDocsAsset, { file });

/** The page's own start-up script (a file, not inline, so a strict Content-Security-Policy can hold). */
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(systemRoutes.openApi.path)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  withCredentials: true,
  tryItOutEnabled: false,
  // Tags start closed, each opened with a click: opened all at once, Swagger UI 5.35 drew the first
  // two tags' operations and none of the others once the document passed ~138 operations.
  docExpansion: 'none',
});
`;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Lantern API reference</title>
    <link rel="stylesheet" href="${asset('swagger-ui.css')}" />
    <style>body { margin: 0; } .swagger-ui .topbar { display: none; }</style>
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${asset('swagger-ui-bundle.js')}"></script>
    <script src="${asset('init.js')}"></script>
  </body>
</html>
`;

/**
 * `GET /api/v1/openapi.json` (the contracts as OpenAPI 3.1, built once) and the interactive reference
 * at `/api/docs` (Swagger UI from its npm package: no request leaves the server). Both without sign-in:
 * they describe shapes, never data.
 */
export function registerApiDocs(
  app: FastifyInstance,
  opts: OpenApiOptions & { routes?: readonly AnyRouteContract[] },
): void {
  let document: Record<string, unknown> | undefined;
  registerRoute(app, systemRoutes.openApi, async () => (document ??= buildOpenApi(opts.routes ?? API_ROUTES, opts)));
  registerRawRoute(app, systemRoutes.apiDocs, async (_input, _req, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(PAGE),
  );
  registerRawRoute(app, systemRoutes.apiDocsAsset, async ({ params }, _req, reply) => {
    if (params.file === 'init.js') return reply.type('text/javascript; charset=utf-8').send(INIT_SCRIPT);
    const known = Object.hasOwn(ASSETS, params.file) ? ASSETS[params.file] : undefined;
    if (!known) throw new AppError('not_found', 'not_found', `${params.file} is not a file of the API reference.`);
    return reply
      .type(known.type)
      .header('cache-control', 'public, max-age=86400')
      .send(createReadStream(join(SWAGGER_UI_DIR, known.file)));
  });
}
