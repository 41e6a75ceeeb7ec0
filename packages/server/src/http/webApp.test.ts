import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { registerWebApp } from './webApp';

describe('web app files', () => {
  const dist = mkdtempSync(join(tmpdir(), 'lantern-web-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Lantern</title>');
  writeFileSync(join(dist, 'assets', 'index-Ab12Cd34.js'), 'console.log(1)');
  writeFileSync(join(dist, 'favicon.svg'), '<svg/>');
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  const serve = async (dir: string) => {
    const app = Fastify();
    await registerWebApp(app, dir);
    return app;
  };

  it('caches hashed assets for a year and revalidates everything else', async () => {
    const app = await serve(dist);
    const asset = await app.inject({ url: '/assets/index-Ab12Cd34.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await app.inject({ url: '/favicon.svg' });
    expect(icon.headers['cache-control']).toBe('no-cache');
    // A page address of the app is index.html, never cached without asking.
    const page = await app.inject({ url: '/metrics/1/5?tab=grid' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Lantern</title>');
    expect(page.headers['cache-control']).toBe('no-cache');
    await app.close();
  });

  it('answers a chunk of another build with a 404, not index.html', async () => {
    const app = await serve(dist);
    const gone = await app.inject({ url: '/assets/DashYamlTab-Old12345.js' });
    expect(gone.statusCode).toBe(404);
    expect(gone.headers['content-type']).toMatch(/^text\/plain/);
    expect(gone.body).toContain('Reload the page');
    await app.close();
  });

  it('answers unknown API paths with a JSON 404 and a missing build with 503', async () => {
    const app = await serve(dist);
    const api = await app.inject({ url: '/api/v1/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'not_found' });
    await app.close();
    const bare = await serve(join(dist, 'missing'));
    const page = await bare.inject({ url: '/overview/1' });
    expect(page.statusCode).toBe(503);
    expect(page.body).toContain('npm start');
    await bare.close();
  });
});
