import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startOidcProvider, type TestOidcProvider } from '@lantern/testkit/fixtures/oidcProvider';
import { TestIdpPage } from '@lantern/testkit/fixtures/TestIdpPage';
import { freePort, removeDataDir, startLantern, type RunningLantern } from '@lantern/testkit/harness';
import { leaseBrowser, screenshot, type BrowserLease } from '@lantern/testkit/pages/browser';
import { LoginPage } from '@lantern/testkit/pages/LoginPage';
import { TopBar } from '@lantern/testkit/pages/TopBar';

/**
 * Single sign-on in the browser against a real OpenID Connect provider started here: the Login
 * page's SSO buttons (one provider down), the provider's own login page, back on the page first
 * asked for, signed in; sign out; a refused domain explained on the Login page; the password form
 * rate-limited with the server's message.
 */
describe('single sign-on in the browser', () => {
  let idp: TestOidcProvider;
  let lantern: RunningLantern;
  let browser: BrowserLease;
  let configDir: string;
  const contexts: BrowserContext[] = [];
  const outsideRequests: string[] = [];
  let current: Page | undefined;

  beforeAll(async () => {
    const httpPort = await freePort();
    const base = `http://127.0.0.1:${httpPort}`;
    idp = await startOidcProvider([
      {
        client_id: 'lantern',
        client_secret: 'e2e-secret',
        redirect_uris: [`${base}/api/v1/sso/testidp/callback`, `${base}/api/v1/sso/corp/callback`],
      },
    ]);
    const down = `http://127.0.0.1:${await freePort()}`;
    configDir = mkdtempSync(join(tmpdir(), 'lantern-sso-'));
    const configFile = join(configDir, 'lantern.yml');
    writeFileSync(
      configFile,
      `auth:
  login_rate_limit:
    max_failures: 3
    window_seconds: 300
  oidc:
    - id: testidp
      display_name: Test IdP
      issuer_url: ${idp.issuer}
      client_id: lantern
      client_secret: e2e-secret
    - id: corp
      display_name: Corp SSO
      issuer_url: ${idp.issuer}
      client_id: lantern
      client_secret: e2e-secret
      allowed_domains: [example.com]
    - id: offline
      display_name: Offline IdP
      issuer_url: ${down}
      client_id: lantern
      client_secret: nope
`,
    );
    lantern = await startLantern({ httpPort, env: { LANTERN_CONFIG: configFile, LANTERN_LOG_LEVEL: 'info' } });
    browser = await leaseBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await lantern?.stop();
    await idp?.close();
    if (lantern) removeDataDir(lantern.dataDir);
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  });

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    const page = await context.newPage();
    // Every request the app makes must stay on this machine (no Gravatar, no CDN).
    page.on('request', (r) => {
      const host = new URL(r.url()).hostname;
      if (host !== '127.0.0.1' && host !== 'localhost' && !r.url().startsWith('data:')) outsideRequests.push(r.url());
    });
    current = page;
    onTestFailed(async () => {
      if (current) await screenshot(current, 'sso-failure', { always: true });
    });
    return page;
  }

  it('signs in through the provider and lands on the page first asked for, then signs out', async () => {
    const page = await newPage();
    // A page other than Home, so landing there shows the round trip kept it.
    await page.goto(`${lantern.baseUrl}/overview/1/slowest-groups`);
    const login = new LoginPage(page);
    await login.ssoButton('testidp').waitFor();
    expect(new URL(page.url()).searchParams.get('next')).toBe('/overview/1/slowest-groups');
    // The unreachable provider is still listed, by its name, marked and disabled.
    await expect.poll(() => login.ssoButton('offline').textContent()).toBe('Offline IdP (unavailable)');
    expect(await login.ssoButton('offline').isDisabled()).toBe(true);
    // The server started all the same, and its log says why the method is unavailable.
    expect(lantern.output()).toMatch(
      /"provider":"offline".*"reason":"fetch failed: ECONNREFUSED".*OIDC provider unavailable/,
    );
    // Each button is labelled with the method's name (spec §2.3), nothing around it.
    expect(await login.ssoButton('testidp').textContent()).toBe('Test IdP');
    expect(await login.ssoButton('corp').textContent()).toBe('Corp SSO');
    await screenshot(page, 'sso-login-buttons');

    await login.ssoButton('testidp').click();
    const idpPage = new TestIdpPage(page);
    await idpPage.email.waitFor();
    expect(page.url().startsWith(idp.issuer)).toBe(true);
    await screenshot(page, 'sso-provider-login');
    await idpPage.signIn('grace.hopper@example.com');

    // Overview of project 1, on the tab first asked for, signed in.
    const top = new TopBar(page);
    await top.userMenu.waitFor();
    expect(new URL(page.url()).pathname).toBe('/overview/1/slowest-groups');
    expect(await top.section('overview').getAttribute('aria-selected')).toBe('true');
    expect(await page.getByTestId('user-avatar').textContent()).toBe('GH');
    const menu = await top.openUserMenu();
    expect(await menu.name.textContent()).toBe('Grace Hopper');
    expect(await menu.email.textContent()).toBe('grace.hopper@example.com');
    await screenshot(page, 'sso-signed-in-user-menu', { fullPage: false });
    await page.keyboard.press('Escape');

    await top.signOut();
    await login.submit.waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    // The session ended on the server: the app does not let us back in.
    await page.goto(`${lantern.baseUrl}/overview/1`);
    await login.ssoButton('testidp').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(idp.logins).toEqual(['grace.hopper@example.com']);
  });

  it("signs in when the app is opened at another address than site.url's: the sign-in starts at the site's", async () => {
    const page = await newPage();
    // The same server as localhost, where site.url says 127.0.0.1.
    const other = lantern.baseUrl.replace('127.0.0.1', 'localhost');
    await page.goto(`${other}/overview/1/slowest-groups`);
    const login = new LoginPage(page);
    await login.ssoButton('testidp').click();
    await new TestIdpPage(page).signIn('katherine.johnson@example.com');
    // Before, the state cookie stayed at localhost: back on the Login page, "The sign-in took too long
    // or was started in another browser tab".
    const top = new TopBar(page);
    await top.userMenu.or(login.ssoError).waitFor();
    expect(await login.ssoError.count()).toBe(0);
    const url = new URL(page.url());
    expect([url.origin, url.pathname]).toEqual([lantern.baseUrl, '/overview/1/slowest-groups']);
    expect(await page.getByTestId('user-avatar').textContent()).toBe('KJ');
  });

  it('explains on the Login page why an e-mail outside the allowed domains is refused', async () => {
    const page = await newPage();
    const login = new LoginPage(page);
    await login.goto(lantern.baseUrl);
    await login.ssoButton('corp').click();
    await new TestIdpPage(page).signIn('mallory@other.org');
    await login.ssoError.waitFor();
    expect(await login.ssoError.textContent()).toBe('Your e-mail domain is not allowed to sign in to Lantern.');
    expect(new URL(page.url()).pathname).toBe('/login');
    await screenshot(page, 'sso-domain-refused');
    expect(lantern.output()).toMatch(/domain other\.org is not in allowed_domains/);
  });

  it('shows the rate limit message after too many wrong passwords', async () => {
    const page = await newPage();
    const login = new LoginPage(page);
    await login.goto(lantern.baseUrl);
    for (let i = 0; i < 3; i++) {
      await login.signIn('admin@lantern.local', `wrong-${i}`);
      await expect.poll(() => login.error.textContent()).toBe('The e-mail or password is wrong.');
      await page.getByTestId('login-submit').and(page.locator(':enabled')).waitFor();
    }
    await login.signIn('admin@lantern.local', 'lantern');
    await expect
      .poll(() => login.error.textContent())
      .toBe('Too many failed sign-in attempts. Try again in 5 minutes.');
    await screenshot(page, 'sso-rate-limited');
    expect(outsideRequests).toEqual([]);
  });
});
