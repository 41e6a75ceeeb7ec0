import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CurrentUserResponse } from '@lantern/shared';
import { removeDataDir } from '@lantern/testkit/harness';
import { startAuthServer, type AuthTestServer } from './authTestServer';

/**
 * Password sign-in limits (an injected clock steps over the window) and sessions kept on the
 * server: sign out ends the session for every copy of the cookie, a restart keeps it, a user
 * removed from the config loses it.
 */
let server: AuthTestServer;

beforeAll(async () => {
  server = await startAuthServer();
});

afterAll(async () => {
  await server?.close();
  if (server) removeDataDir(server.dataDir);
});

const login = (email: string, password: string, from = '198.51.100.7') =>
  fetch(`${server.baseUrl}/api/v1/users/login`, {
    method: 'POST',
    // The server trusts X-Forwarded-For (it runs behind proxies): each test client gets an address.
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify({ email, password }),
  });

const cookieOf = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith('lantern_session='))!;
const current = (cookie: string) =>
  fetch(`${server.baseUrl}/api/v1/users/current`, { headers: { cookie: cookie.split(';')[0] } });

describe('login rate limiting', () => {
  it('answers the 11th wrong password in 5 minutes with 429 and Retry-After, and lets the right one in once the window has passed', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await login('admin@lantern.local', `wrong-${i}`);
      expect(res.status).toBe(400);
      server.clock.ms += 1000;
    }
    const limited = await login('admin@lantern.local', 'wrong-again');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBe(290);
    expect(await limited.json()).toEqual({
      code: 'too_many_attempts',
      message: 'Too many failed sign-in attempts. Try again in 5 minutes.',
    });
    // The right password is refused too while the account is limited, from another address as well.
    expect((await login('admin@lantern.local', 'lantern')).status).toBe(429);
    expect((await login('admin@lantern.local', 'lantern', '203.0.113.9')).status).toBe(429);

    server.clock.ms += 290_000;
    const ok = await login('admin@lantern.local', 'lantern');
    expect(ok.status).toBe(200);
    // Success cleared the count: ten more failures are allowed before the next 429.
    for (let i = 0; i < 10; i++) expect((await login('admin@lantern.local', 'nope')).status).toBe(400);
    expect((await login('admin@lantern.local', 'nope')).status).toBe(429);
    server.clock.ms += 300_000;
  });

  it('takes as long to refuse an unknown e-mail as a wrong password, so the time tells no account apart', async () => {
    const timeOf = async (email: string, from: string) => {
      const start = performance.now();
      expect((await login(email, 'not-the-password', from)).status).toBe(400);
      return performance.now() - start;
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const known: number[] = [];
    const unknown: number[] = [];
    // Alternating, each from its own address and under the limit, so both see the same load.
    for (let i = 0; i < 5; i++) {
      known.push(await timeOf('admin@lantern.local', `192.0.2.${100 + i}`));
      unknown.push(await timeOf(`nobody${i}@example.com`, `192.0.2.${110 + i}`));
    }
    // A wrong password costs a scrypt hash (tens of ms); an unknown e-mail costs one too.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
    server.clock.ms += 300_000;
  });

  it('counts attempts sent at once: 30 wrong passwords together get 10 answers and 20 refusals', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => login('admin@lantern.local', `guess-${i}`, '192.0.2.77')),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 400)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    // The right password is refused too until the window has passed, then it signs in.
    expect((await login('admin@lantern.local', 'lantern', '192.0.2.78')).status).toBe(429);
    server.clock.ms += 300_000;
    expect((await login('admin@lantern.local', 'lantern', '192.0.2.77')).status).toBe(200);
  });

  it('limits one address trying many accounts', async () => {
    for (let i = 0; i < 10; i++) expect((await login(`user${i}@example.com`, 'x', '192.0.2.50')).status).toBe(400);
    expect((await login('someone@example.com', 'x', '192.0.2.50')).status).toBe(429);
    expect((await login('admin@lantern.local', 'lantern', '192.0.2.51')).status).toBe(200);
    server.clock.ms += 300_000;
  });
});

describe('sessions', () => {
  it('sets an HttpOnly, SameSite=Lax session cookie without Secure on an http site', async () => {
    const cookie = cookieOf(await login('admin@lantern.local', 'lantern'));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/i);
    expect(CurrentUserResponse.parse(await (await current(cookie)).json()).user.avatar).toBe('');
  });

  it('ends the session on the server at sign out: a kept copy of the cookie no longer works', async () => {
    const a = cookieOf(await login('admin@lantern.local', 'lantern'));
    const b = cookieOf(await login('admin@lantern.local', 'lantern'));
    expect((await current(a)).status).toBe(200);
    const out = await fetch(`${server.baseUrl}/api/v1/users/logout`, {
      method: 'POST',
      headers: { cookie: a.split(';')[0] },
    });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().join()).toMatch(/lantern_session=;/);
    expect((await current(a)).status).toBe(401);
    // Another session of the same user goes on.
    expect((await current(b)).status).toBe(200);
  });

  it('keeps sessions across a restart, sets Secure on an https site, and drops users removed from the config', async () => {
    const admin = cookieOf(await login('admin@lantern.local', 'lantern'));
    await server.close();
    server = await startAuthServer({
      dataDir: server.dataDir,
      configure(config) {
        config.site.url = 'https://lantern.example';
        config.auth.gravatar = true;
        config.users = [...config.users, { name: 'Ops', email: 'ops@example.com', password: 'ops-password' }];
      },
    });
    expect(CurrentUserResponse.parse(await (await current(admin)).json()).user.email).toBe('admin@lantern.local');
    const opsLogin = await login('ops@example.com', 'ops-password');
    const ops = cookieOf(opsLogin);
    expect(ops).toMatch(/Secure/i);
    // Gravatar only because this config turns it on (the other tests see an empty avatar).
    expect(CurrentUserResponse.parse(await opsLogin.json()).user.avatar).toBe(
      'https://www.gravatar.com/avatar/12aea85353c80f1be481b35b0c315798?d=identicon',
    );

    await server.close();
    server = await startAuthServer({
      dataDir: server.dataDir,
      configure(config) {
        config.users = [{ name: 'Admin', email: 'admin@lantern.local', password: 'lantern' }];
      },
    });
    expect((await current(admin)).status).toBe(200);
    expect((await current(ops)).status).toBe(401);
    expect((await login('ops@example.com', 'ops-password')).status).toBe(400);
  });
});
