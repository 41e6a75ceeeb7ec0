import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { isApiPath } from '@lantern/shared';
import type { FastifyInstance } from 'fastify';

/** Built files under /assets/ carry a hash of their content in their name: cached for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built web app. Unknown GET paths outside /api, /v1 and /assets get index.html
 * (history-mode routes); unknown API paths get a JSON 404, unknown assets a plain 404. The hashed assets are cached by the browser without
 * asking again (a reload fetches nothing but index.html, which is always revalidated).
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  const hasBundle = existsSync(join(distDir, 'index.html'));
  if (hasBundle)
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      cacheControl: false,
      setHeaders: (reply, path) => {
        reply.header('cache-control', /[\\/]assets[\\/]/.test(path) ? IMMUTABLE : 'no-cache');
      },
    });
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    // A built file that is not there (a page loaded from an earlier build asks for its chunks): a
    // 404, so the browser sees a failed import, not index.html served as a script.
    if (req.method === 'GET' && path.startsWith('/assets/'))
      return reply.status(404).type('text/plain').send(`${path} is not in this build of Lantern. Reload the page.`);
    if (req.method === 'GET' && !isApiPath(path)) {
      if (hasBundle) return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
      return reply
        .status(503)
        .type('text/plain')
        .send('The web app is not built. Run `npm start` (it builds packages/web) and reload.');
    }
    return reply.status(404).send({ code: 'not_found', message: `${req.method} ${path} is not a Lantern endpoint.` });
  });
}
