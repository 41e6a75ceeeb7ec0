import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CurrentUserResponse, ProjectResponse } from '@lantern/shared';
import { DEFAULT_LOGIN, removeDataDir, signIn, startLantern, type RunningLantern } from '@lantern/testkit/harness';

let lantern: RunningLantern;
beforeAll(async () => {
  lantern = await startLantern();
});
afterAll(async () => {
  await lantern?.stop();
  if (lantern) removeDataDir(lantern.dataDir);
});

const call = (path: string, init: RequestInit = {}) => fetch(`${lantern.baseUrl}${path}`, init);

describe('sign-in and the session', () => {
  it('answers every API call without a session with 401 {code, message}', async () => {
    for (const path of [
      '/api/v1/users/current',
      '/api/v1/projects/1',
      '/api/v1/tracing/1/traces/0af7651916cd43dd8448eb211c80319c',
      '/api/v1/traces/search?trace_id=0af7651916cd43dd8448eb211c80319c',
    ]) {
      const res = await call(path);
      expect(res.status, path).toBe(401);
      expect(await res.json()).toEqual({ code: 'unauthenticated', message: 'Please sign in.' });
    }
  });

  it('refuses wrong credentials with a clear message and invalid input with 400', async () => {
    const wrong = await call('/api/v1/users/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: DEFAULT_LOGIN.email, password: 'nope' }),
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ code: 'invalid_credentials', message: 'The e-mail or password is wrong.' });
    const invalid = await call('/api/v1/users/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'not-an-email' }),
    });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { code: string }).code).toBe('invalid_input');
    // Each field says one thing: an empty e-mail is required, not also an invalid address.
    const empty = await call('/api/v1/users/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ' ', password: '' }),
    });
    expect(await empty.json()).toEqual({
      code: 'invalid_input',
      message: 'email: Field is required; password: Field is required',
    });
    const notJson = await call('/api/v1/users/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { code: string }).code).toBe('json_syntax');
  });

  it('signs in, reads the user, projects and DSNs, and signs out', async () => {
    const hint = await (await call('/api/v1/users/login-hint')).json();
    expect(hint).toEqual({ hint: DEFAULT_LOGIN });
    const cookie = await signIn(lantern.baseUrl);
    const current = CurrentUserResponse.parse(
      await (await call('/api/v1/users/current', { headers: { cookie } })).json(),
    );
    expect(current.user.email).toBe(DEFAULT_LOGIN.email);
    expect(current.projects.map((p) => p.id)).toEqual([1, 2]);

    const project = ProjectResponse.parse(await (await call('/api/v1/projects/1', { headers: { cookie } })).json());
    expect(project.http.dsn).toBe(`http://project1_secret_token@127.0.0.1:${lantern.httpPort}/1`);
    expect(project.grpc.dsn).toBe(`http://project1_secret_token@127.0.0.1:${lantern.grpcPort}/1`);
    expect((await call('/api/v1/projects/99', { headers: { cookie } })).status).toBe(404);
    expect((await call('/api/v1/projects/abc', { headers: { cookie } })).status).toBe(404);

    const logout = await call('/api/v1/users/logout', { method: 'POST', headers: { cookie } });
    expect(logout.status).toBe(200);
    expect(logout.headers.get('set-cookie')).toMatch(/lantern_session=;/);
  });

  it('rejects a forged session token', async () => {
    const res = await call('/api/v1/users/current', {
      headers: { cookie: 'lantern_session=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.forged' },
    });
    expect(res.status).toBe(401);
  });

  it('serves the web app for history-mode routes and JSON 404 for unknown API paths', async () => {
    const page = await call('/traces/1/abc');
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const api = await call('/api/v1/nope');
    expect(api.status).toBe(401);
    const cookie = await signIn(lantern.baseUrl);
    const known = await call('/api/v1/nope', { headers: { cookie } });
    expect(known.status).toBe(404);
    expect(await known.json()).toMatchObject({ code: 'not_found' });
  });
});
