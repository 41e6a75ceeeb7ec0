import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CurrentUserResponse, SsoMethodsResponse } from '@lantern/shared';
import { startOidcProvider, type TestOidcProvider } from '@lantern/testkit/fixtures/oidcProvider';
import { freePort, removeDataDir } from '@lantern/testkit/harness';
import { startAuthServer, type AuthTestServer } from './authTestServer';
import { CookieJar, locationOf, request, signInAtProvider, ssoSignIn, ssoStart } from './ssoFlow';

/**
 * Single sign-on against a real OpenID Connect provider (oidc-provider) started here: discovery,
 * the code flow with PKCE, user creation and reuse, and each refusal ending on the Login page.
 */
let idp: TestOidcProvider;
let server: AuthTestServer;
let base: string;
let downPort: number;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const cb = (id: string) => `${base}/api/v1/sso/${id}/callback`;
  idp = await startOidcProvider([
    {
      client_id: 'lantern',
      client_secret: 'lantern-secret',
      redirect_uris: [cb('test'), cb('corp'), cb('badsecret'), cb('invite')],
    },
  ]);
  downPort = await freePort();
  const down = `http://127.0.0.1:${downPort}`;
  idp.accounts.set('no-email', { name: 'No Mail' });
  idp.accounts.set('unverified@example.com', { email: 'unverified@example.com', email_verified: false });
  server = await startAuthServer({
    httpPort: port,
    configure(config) {
      const p = {
        issuer_url: idp.issuer,
        client_id: 'lantern',
        client_secret: 'lantern-secret',
        redirect_url: '',
        scopes: ['profile', 'email'],
        email_claim: 'email',
        name_claim: '',
        allowed_domains: [],
        allow_sign_up: true,
      };
      config.auth.oidc = [
        { ...p, id: 'test', display_name: 'Test IdP' },
        { ...p, id: 'corp', display_name: 'Corp', allowed_domains: ['example.com'] },
        { ...p, id: 'badsecret', display_name: 'Bad secret', client_secret: 'wrong' },
        { ...p, id: 'invite', display_name: 'Invite only', allow_sign_up: false },
        { ...p, id: 'down', display_name: 'Down', issuer_url: down },
      ];
    },
  });
});

afterAll(async () => {
  await server?.close();
  await idp?.close();
  if (server) removeDataDir(server.dataDir);
});

async function currentUser(jar: CookieJar) {
  const res = await request(jar, `${base}/api/v1/users/current`);
  return res.status === 200 ? CurrentUserResponse.parse(await res.json()) : null;
}

const loginError = (res: Response) => {
  expect(res.status).toBe(302);
  const to = new URL(res.headers.get('location')!, base);
  expect(to.pathname).toBe('/login');
  return to.searchParams.get('sso_error');
};

describe('single sign-on (OpenID Connect)', () => {
  it('lists the providers, the unreachable one as unavailable, and logs why', async () => {
    const res = await fetch(`${base}/api/v1/sso/methods`);
    const { methods } = SsoMethodsResponse.parse(await res.json());
    expect(methods.map((m) => [m.id, m.name, m.available])).toEqual([
      ['test', 'Test IdP', true],
      ['corp', 'Corp', true],
      ['badsecret', 'Bad secret', true],
      ['invite', 'Invite only', true],
      ['down', 'Down', false],
    ]);
    expect(methods[0].url).toBe('/api/v1/sso/test/start');
    expect(methods[4].reason).toMatch(/cannot be reached/);
    const line = server.logLines().find((l) => l.provider === 'down' && /unavailable/.test(String(l.msg)));
    expect(line?.reason).toMatch(/ECONNREFUSED|fetch failed/);
  });

  it('starts the code flow with PKCE, state and nonce at the discovered authorization endpoint', async () => {
    const jar = new CookieJar();
    const start = await ssoStart(jar, base, 'test', '/overview/1');
    expect(start.status).toBe(302);
    const url = new URL(locationOf(start, base));
    expect(`${url.origin}${url.pathname}`).toBe(`${idp.issuer}/auth`);
    const q = url.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe('lantern');
    expect(q.get('redirect_uri')).toBe(`${base}/api/v1/sso/test/callback`);
    expect(q.get('scope')!.split(' ').sort()).toEqual(['email', 'openid', 'profile']);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(q.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(q.get('nonce')).toMatch(/^[\w-]{20,}$/);
    const setCookie = start.headers.getSetCookie().find((c) => c.startsWith('lantern_sso='))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\/api\/v1\/sso\//);
  });

  it('creates the user at the first sign-in, lands on the page asked for, and reuses the user next time', async () => {
    const jar = new CookieJar();
    const done = await ssoSignIn(jar, base, 'test', 'jane.doe@example.com', '/overview/1?time_dur=3600');
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/overview/1?time_dur=3600');
    const session = done.headers.getSetCookie().find((c) => c.startsWith('lantern_session='))!;
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).not.toMatch(/Secure/i);
    // The state is single-use: the callback clears it.
    expect(jar.get(base, 'lantern_sso')).toBeUndefined();
    const first = await currentUser(jar);
    expect(first?.user).toMatchObject({ email: 'jane.doe@example.com', name: 'Jane Doe', avatar: '' });

    // The provider renamed her meanwhile: same user, the provider's new name.
    idp.accounts.set('Jane.Doe@example.com', { email: 'Jane.Doe@example.com', email_verified: true, name: 'Jane Roe' });
    const again = new CookieJar();
    expect((await ssoSignIn(again, base, 'test', 'Jane.Doe@example.com')).headers.get('location')).toBe('/');
    expect((await currentUser(again))?.user).toMatchObject({ id: first!.user.id, name: 'Jane Roe' });
  });

  it("starts a sign-in opened at another address than the site's over at the site's, and signs in there", async () => {
    const jar = new CookieJar();
    // The same server by another name (site.url says 127.0.0.1): a state cookie set here would not
    // reach the callback, and the round trip ended on the Login page (state_missing).
    const other = base.replace('127.0.0.1', 'localhost');
    const moved = await ssoStart(jar, other, 'test', '/overview/1?time_dur=3600');
    expect(moved.status).toBe(302);
    expect(locationOf(moved, other)).toBe(
      `${base}/api/v1/sso/test/start?return_to=%2Foverview%2F1%3Ftime_dur%3D3600&at_site=1`,
    );
    expect(jar.get(other, 'lantern_sso')).toBeUndefined();
    const start = await request(jar, locationOf(moved, other));
    expect(start.status).toBe(302);
    expect(locationOf(start, base).startsWith(idp.issuer)).toBe(true);
    const done = await request(jar, await signInAtProvider(jar, locationOf(start, base), 'moved@example.com'));
    expect([done.status, done.headers.get('location')]).toEqual([302, '/overview/1?time_dur=3600']);
    expect((await currentUser(jar))?.user).toMatchObject({ email: 'moved@example.com' });
    // At the site's own address it starts at once.
    expect(locationOf(await ssoStart(new CookieJar(), base, 'test'), base).startsWith(idp.issuer)).toBe(true);
  });

  it('signs a configured user in as that user', async () => {
    const jar = new CookieJar();
    await ssoSignIn(jar, base, 'test', 'admin@lantern.local');
    const password = await fetch(`${base}/api/v1/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@lantern.local', password: 'lantern' }),
    });
    expect((await currentUser(jar))?.user.id).toBe(CurrentUserResponse.parse(await password.json()).user.id);
  });

  it('refuses an e-mail outside the allowed domains', async () => {
    const jar = new CookieJar();
    expect(loginError(await ssoSignIn(jar, base, 'corp', 'mallory@other.org'))).toBe('domain_not_allowed');
    expect(await currentUser(jar)).toBeNull();
    expect((await ssoSignIn(new CookieJar(), base, 'corp', 'bob@example.com')).headers.get('location')).toBe('/');
  });

  it('refuses a tampered state, a missing state cookie and a replayed code', async () => {
    const jar = new CookieJar();
    const start = await ssoStart(jar, base, 'test');
    const callback = new URL(await signInAtProvider(jar, locationOf(start, base), 'eve@example.com'));
    const tampered = new URL(callback);
    tampered.searchParams.set('state', 'forged-state-value-0123456789');
    expect(loginError(await request(jar, tampered.href))).toBe('state_mismatch');
    expect(await currentUser(jar)).toBeNull();

    // The first callback cleared the state cookie: the genuine URL now has nothing to match.
    expect(loginError(await request(jar, callback.href))).toBe('state_missing');

    const jar2 = new CookieJar();
    const start2 = await ssoStart(jar2, base, 'test');
    const callback2 = await signInAtProvider(jar2, locationOf(start2, base), 'eve@example.com');
    const stateCookie = jar2.get(base, 'lantern_sso')!;
    expect((await request(jar2, callback2)).headers.get('location')).toBe('/');
    // Replaying the same code (with the state cookie put back) is refused by the provider.
    const replay = new CookieJar();
    await request(replay, `${base}/api/v1/health`);
    const res = await fetch(callback2, { redirect: 'manual', headers: { cookie: `lantern_sso=${stateCookie}` } });
    expect(loginError(res)).toBe('code_invalid');
  });

  it('explains a wrong client secret, a missing or unverified e-mail, no account, and an unreachable provider', async () => {
    expect(loginError(await ssoSignIn(new CookieJar(), base, 'badsecret', 'a@example.com'))).toBe('client_rejected');
    expect(loginError(await ssoSignIn(new CookieJar(), base, 'test', 'no-email'))).toBe('email_missing');
    expect(loginError(await ssoSignIn(new CookieJar(), base, 'test', 'unverified@example.com'))).toBe(
      'email_unverified',
    );
    expect(loginError(await ssoSignIn(new CookieJar(), base, 'invite', 'stranger@example.com'))).toBe('no_account');
    // An existing user may sign in where sign-up is off.
    expect((await ssoSignIn(new CookieJar(), base, 'invite', 'admin@lantern.local')).headers.get('location')).toBe('/');
    const down = await ssoStart(new CookieJar(), base, 'down', '/alerting/1');
    expect(loginError(down)).toBe('provider_unavailable');
    expect(new URL(down.headers.get('location')!, base).searchParams.get('next')).toBe('/alerting/1');
    expect(loginError(await ssoStart(new CookieJar(), base, 'nope'))).toBe('unknown_provider');
    const refused = server
      .logLines()
      .filter((l) => l.msg === 'single sign-on refused')
      .map((l) => l.code);
    expect(refused).toEqual(
      expect.arrayContaining(['client_rejected', 'email_missing', 'no_account', 'provider_unavailable']),
    );
  });

  it('sends a provider refusal back to the Login page and never redirects off-site', async () => {
    const jar = new CookieJar();
    await ssoStart(jar, base, 'test');
    const denied = await request(
      jar,
      `${base}/api/v1/sso/test/callback?error=access_denied&error_description=User+cancelled`,
    );
    expect(loginError(denied)).toBe('provider_denied');
    for (const evil of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
      const done = await ssoSignIn(new CookieJar(), base, 'test', 'jane.doe@example.com', evil);
      expect(done.headers.get('location')).toBe('/');
    }
  });

  it('offers a provider that was unreachable at start once it answers', async () => {
    const late = await startOidcProvider(
      [{ client_id: 'lantern', client_secret: 'lantern-secret', redirect_uris: [`${base}/api/v1/sso/down/callback`] }],
      { port: downPort },
    );
    try {
      // Discovery is tried again when the method is used (at most once a second).
      await expect
        .poll(async () => (await ssoStart(new CookieJar(), base, 'down')).headers.get('location'), {
          timeout: 10_000,
          interval: 300,
        })
        .toMatch(new RegExp(`^${late.issuer}/auth\\?`));
      const { methods } = SsoMethodsResponse.parse(await (await fetch(`${base}/api/v1/sso/methods`)).json());
      expect(methods.find((m) => m.id === 'down')?.available).toBe(true);
      expect((await ssoSignIn(new CookieJar(), base, 'down', 'late@example.com')).headers.get('location')).toBe('/');
      expect(server.logLines().some((l) => l.provider === 'down' && l.msg === 'OIDC provider ready')).toBe(true);
    } finally {
      await late.close();
    }
  });
});
