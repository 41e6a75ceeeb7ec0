import { compileErrors, validate } from '@readme/openapi-parser';
import { API_ROUTES, systemRoutes } from '@lantern/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type AuthTestServer } from '../auth/authTestServer';

/** Issue 22: every route comes from a contract, and the contracts are published as OpenAPI 3.1. */
let server: AuthTestServer;
beforeAll(async () => {
  server = await startAuthServer();
});
afterAll(async () => {
  await server?.close();
});

const key = (method: string, path: string) => `${method} ${path}`;

describe('the API and its contracts', () => {
  it('registers exactly the routes the contracts declare, each from its own contract', () => {
    // HEAD routes are Fastify's own twins of GET routes.
    const registered = server.lantern.http.registeredRoutes.filter((r) => r.method !== 'HEAD');
    const withoutContract = registered.filter((r) => r.contractId === undefined).map((r) => key(r.method, r.url));
    expect(withoutContract, 'routes registered without a contract').toEqual([]);
    const contracts = new Map(API_ROUTES.map((c) => [key(c.method, c.path), c.id]));
    const routes = new Map(registered.map((r) => [key(r.method, r.url), r.contractId]));
    expect([...routes.keys()].sort()).toEqual([...contracts.keys()].sort());
    for (const [route, id] of routes) expect(id, route).toBe(contracts.get(route));
    expect(registered.length).toBe(API_ROUTES.length);
    expect(new Set(API_ROUTES.map((c) => c.id)).size).toBe(API_ROUTES.length);
  });

  it('publishes a valid OpenAPI 3.1 document without sign-in, one operation per contract', async () => {
    const res = await fetch(`${server.baseUrl}${systemRoutes.openApi.path}`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, Record<string, unknown>>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? 'valid' : compileErrors(result)).toBe('valid');

    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path, method, op })),
    );
    expect(operations.length).toBe(API_ROUTES.length);
    expect(operations.length).toBeGreaterThanOrEqual(60);
    expect(Object.keys(doc.components.securitySchemes)).toEqual(
      expect.arrayContaining(['session', 'dsnHeader', 'dsnBearer']),
    );
    for (const { path, method, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.summary, where).toEqual(expect.any(String));
      const responses = op.responses as Record<string, { content?: Record<string, { schema?: unknown }> }>;
      const success = Object.keys(responses).find((s) => s.startsWith('2') || s.startsWith('3'));
      expect(success, where).toBeDefined();
      if (success !== '204' && success !== '302')
        expect(Object.values(responses[success!].content ?? {})[0]?.schema, where).toBeDefined();
      expect(responses['500'], where).toBeDefined();
      // Path params are declared for each `{name}` in the path.
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = (op.parameters as { name: string; in: string }[])
        .filter((p) => p.in === 'path')
        .map((p) => p.name);
      expect(declared.sort(), where).toEqual(inPath.sort());
    }
    const login = doc.paths['/api/v1/users/login'].post;
    expect(login.security).toEqual([]);
    expect(login.requestBody).toMatchObject({
      content: { 'application/json': { schema: { $ref: expect.any(String) } } },
    });
    expect(doc.paths['/api/v1/users/current'].get.security).toEqual([{ session: [] }]);
    expect(doc.paths['/v1/traces'].post.requestBody).toMatchObject({
      content: { 'application/x-protobuf': expect.anything(), 'application/json': expect.anything() },
    });
  });

  it('serves the API reference page and its assets from the package, without sign-in', async () => {
    const page = await fetch(`${server.baseUrl}${systemRoutes.apiDocs.path}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBe(3);
    for (const asset of assets) {
      expect(asset.startsWith('/api/docs/'), asset).toBe(true);
      const res = await fetch(`${server.baseUrl}${asset}`);
      expect(res.status, asset).toBe(200);
      expect((await res.text()).length, asset).toBeGreaterThan(asset.endsWith('init.js') ? 50 : 10_000);
    }
    const unknown = await fetch(`${server.baseUrl}/api/docs/package.json`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'not_found' });
  });
});
