import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { DEFAULT_LOGIN, removeDataDir, startLantern, type RunningLantern } from '@lantern/testkit/harness';
import { leaseBrowser, screenshot, type BrowserLease } from '@lantern/testkit/pages/browser';
import { ChannelEmailPage } from '@lantern/testkit/pages/ChannelEmailPage';
import { LoginPage } from '@lantern/testkit/pages/LoginPage';
import { ProjectSettingsPage } from '@lantern/testkit/pages/ProjectSettingsPage';
import { TopBar } from '@lantern/testkit/pages/TopBar';
import { TracePage } from '@lantern/testkit/pages/TracePage';

/**
 * The foundation screens end to end against the real server and its real ingest: sign in, find the
 * DSN in Project settings, send a trace over OTLP/HTTP JSON with it, jump to it from the search
 * box, see its span tree, sign out.
 */

const traceId = randomBytes(16).toString('hex');
const spanIds = {
  root: randomBytes(8).toString('hex'),
  cart: randomBytes(8).toString('hex'),
  charge: randomBytes(8).toString('hex'),
};
const NAMES = { root: 'checkout', cart: 'load cart', charge: 'charge card' };
/** A second password user (the config keeps the default one and the default projects 1 and 2, and adds a bare project 3). */
const SECOND_LOGIN = { email: 'bob@example.com', password: 'bob-password' };

function otlpTrace(): unknown {
  const start = BigInt(Date.now() - 5_000) * 1_000_000n;
  const ms = (n: number) => String(start + BigInt(n) * 1_000_000n);
  const span = (
    id: string,
    parent: string | undefined,
    name: string,
    kind: number,
    from: number,
    to: number,
    status?: object,
  ) => ({
    traceId,
    spanId: id,
    ...(parent ? { parentSpanId: parent } : {}),
    name,
    kind,
    startTimeUnixNano: ms(from),
    endTimeUnixNano: ms(to),
    attributes: [{ key: 'e2e.test', value: { stringValue: 'foundation' } }],
    ...(status ? { status } : {}),
  });
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'shop' } }] },
        scopeSpans: [
          {
            scope: { name: 'e2e' },
            spans: [
              span(spanIds.root, undefined, NAMES.root, 2, 0, 250),
              span(spanIds.cart, spanIds.root, NAMES.cart, 1, 10, 40),
              span(spanIds.charge, spanIds.root, NAMES.charge, 3, 50, 230, { code: 2, message: 'card declined' }),
            ],
          },
        ],
      },
    ],
  };
}

describe('foundation screens', () => {
  let lantern: RunningLantern;
  let browser: BrowserLease;
  let context: BrowserContext;
  let page: Page;
  const browserErrors: string[] = [];

  let configDir: string;

  beforeAll(async () => {
    configDir = mkdtempSync(join(tmpdir(), 'lantern-foundation-'));
    const configFile = join(configDir, 'lantern.yml');
    writeFileSync(
      configFile,
      `projects:
  - { id: 1, name: Lantern, tokens: [project1_secret_token] }
  - { id: 2, name: My project, tokens: [project2_secret_token] }
  - { id: 3, name: Bare, tokens: [project3_secret_token], pinned_attrs: [], group_by_env: true }
users:
  - { name: Admin, email: ${DEFAULT_LOGIN.email}, password: ${DEFAULT_LOGIN.password} }
  - { name: Bob, email: ${SECOND_LOGIN.email}, password: ${SECOND_LOGIN.password} }
`,
    );
    lantern = await startLantern({ env: { LANTERN_CONFIG: configFile } });
    browser = await leaseBrowser();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.on('pageerror', (err) => browserErrors.push(err.message));
  });

  // A failing step is easier to read with the server's own account of it.
  const explainFailures = () => onTestFailed(() => console.error(`--- Lantern output ---\n${lantern.output()}`));

  afterAll(async () => {
    await browser?.close();
    await lantern?.stop();
    if (lantern) removeDataDir(lantern.dataDir);
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  });

  it('signs in, sends a trace with the DSN from settings, finds it, signs out', async () => {
    explainFailures();
    const login = new LoginPage(page);
    const topBar = new TopBar(page);

    // Signed out, any page leads to Login, and the top bar offers only a Login link.
    await page.goto(`${lantern.baseUrl}/`);
    await page.waitForURL(/\/login$/);
    await login.submit.waitFor();
    await expect(page.getByTestId('login-link').isVisible()).resolves.toBe(true);
    await expect(topBar.search.count()).resolves.toBe(0);
    await expect(login.hint.innerText()).resolves.toContain(DEFAULT_LOGIN.email);
    await expect(login.submit.isDisabled()).resolves.toBe(true);

    // Enter with the password never filled in: Sign in stays disabled, and the field says why.
    await login.email.fill(DEFAULT_LOGIN.email);
    await login.password.press('Enter');
    await page.getByText('Field is required').waitFor({ timeout: 5000 });
    await expect(page.getByText('Field is required').count()).resolves.toBe(1);
    expect(page.url()).toMatch(/\/login$/);
    await screenshot(page, '01a-login-password-required');

    await login.email.fill('not-an-email');
    await login.password.fill('x');
    await expect(login.submit.isDisabled()).resolves.toBe(true);
    await login.fill(DEFAULT_LOGIN.email, 'wrong password');
    await expect(login.submit.isEnabled()).resolves.toBe(true);
    await screenshot(page, '01-login-filled');

    await login.submit.click();
    await login.error.waitFor();
    const message = await login.error.innerText();
    expect(message.length).toBeGreaterThan(0);
    expect(page.url()).toMatch(/\/login$/);
    await screenshot(page, '02-login-error');

    await login.signIn(DEFAULT_LOGIN.email, DEFAULT_LOGIN.password);
    await page.waitForURL(/\/overview\/\d+$/);
    await topBar.projectName.waitFor();
    await expect(topBar.search.getAttribute('placeholder')).resolves.toBe('Search or jump to trace id...');
    for (const key of ['overview', 'spans', 'metrics', 'alerting'] as const) await topBar.section(key).waitFor();
    const user = await topBar.openUserMenu();
    await expect(user.email.innerText()).resolves.toBe(DEFAULT_LOGIN.email);
    await page.keyboard.press('Escape');
    await screenshot(page, '03-overview');

    await topBar.openProjectSettings();
    const settings = new ProjectSettingsPage(page);
    const dsn = await settings.dsn('http');
    expect(dsn).toMatch(/^http:\/\/[^@]+@[^/]+\/\d+$/);
    await expect(settings.dsn('grpc')).resolves.toMatch(new RegExp(`:${lantern.grpcPort}/\\d+$`));
    await screenshot(page, '04-project-settings');

    const res = await fetch(`${lantern.baseUrl}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'lantern-dsn': dsn },
      body: JSON.stringify(otlpTrace()),
    });
    expect(res.status, await res.text()).toBe(200);

    // Dashed UUID form: the search normalises it to the 32-hex id.
    const dashed = `${traceId.slice(0, 8)}-${traceId.slice(8, 12)}-${traceId.slice(12, 16)}-${traceId.slice(16, 20)}-${traceId.slice(20)}`;
    await topBar.searchFor(dashed.toUpperCase());
    await page.waitForURL(new RegExp(`/traces/(\\d+/)?${traceId}$`));
    const trace = new TracePage(page);
    await trace.waitForTrace();
    await page.waitForURL(new RegExp(`/traces/\\d+/${traceId}$`));
    await expect(trace.title.innerText()).resolves.toBe(NAMES.root);
    await expect(trace.spanNameTexts()).resolves.toEqual([NAMES.root, NAMES.cart, NAMES.charge]);
    await expect(page.getByTestId('header-duration').innerText()).resolves.toContain('250ms');
    await expect(page.locator('[data-testid="span-row"] [data-testid="span-error-icon"]').count()).resolves.toBe(1);
    await screenshot(page, '05-trace');

    // Collapse the root: only it stays.
    await page.getByTestId('span-toggle').first().click();
    await expect(trace.rows.count()).resolves.toBe(1);
    await page.getByTestId('span-toggle').first().click();
    await expect(trace.rows.count()).resolves.toBe(3);

    // A span row opens that span's card; its 'Span' link opens the span page.
    await trace.openSpan(NAMES.charge);
    await expect(trace.dialog.getByTestId('header-status').innerText()).resolves.toContain('error');
    await expect(trace.dialog.getByTestId('span-attrs').innerText()).resolves.toContain('e2e.test');
    await trace.dialog.getByTestId('span-breadcrumbs').getByText('Span', { exact: true }).click();
    await page.getByTestId('span-page').waitFor();
    await expect(page.getByTestId('span-card-title').innerText()).resolves.toBe(NAMES.charge);
    await screenshot(page, '06-span');

    await topBar.signOut();
    await page.waitForURL(/\/login$/);
    await login.submit.waitFor();
    await screenshot(page, '07-signed-out');

    // The session is really gone: a protected page sends the user back to Login (which returns
    // them there after signing in).
    await page.goto(`${lantern.baseUrl}/projects/1`);
    await page.waitForURL(/\/login\?next=%2Fprojects%2F1$/);
    expect(browserErrors).toEqual([]);
  });

  it('shows the not-found message for an unknown trace and a not-found page for unknown paths', async () => {
    explainFailures();
    const login = new LoginPage(page);
    await login.goto(lantern.baseUrl);
    await login.signIn(DEFAULT_LOGIN.email, DEFAULT_LOGIN.password);
    await page.waitForURL(/\/overview\/\d+$/);

    const missing = 'ffffffffffffffffffffffffffffffff';
    await page.goto(`${lantern.baseUrl}/traces/${missing}`);
    const trace = new TracePage(page);
    await trace.notFound.waitFor();
    await expect(trace.notFound.innerText()).resolves.toContain(`Trace ${missing} not found.`);
    await trace.tryAgain.click();
    await trace.notFound.waitFor();
    await screenshot(page, '08-trace-not-found');

    await page.goto(`${lantern.baseUrl}/no/such/page`);
    await expect(page.getByTestId('not-found').innerText()).resolves.toContain(
      "Sorry, the requested page can't be found.",
    );

    // Project settings of an id that is no number: the not-found page, not a skeleton for ever.
    await page.goto(`${lantern.baseUrl}/projects/abc`);
    await expect(page.getByTestId('not-found').innerText()).resolves.toContain(
      "Sorry, the requested page can't be found.",
    );
    await expect(page.title()).resolves.toBe('Page not found · Lantern');
    await expect(new ProjectSettingsPage(page).root.count()).resolves.toBe(0);
    await screenshot(page, '08b-project-settings-not-found');

    // A screen that shows the not-found page inside itself leaves the tab's title to it.
    await page.goto(`${lantern.baseUrl}/metrics/abc/help`);
    await expect(page.getByTestId('not-found').innerText()).resolves.toContain(
      "Sorry, the requested page can't be found.",
    );
    await expect.poll(() => page.title()).toBe('Page not found · Lantern');

    // The project picker keeps a projectId-only route for the chosen project.
    const topBar = new TopBar(page);
    await page.goto(`${lantern.baseUrl}/projects/1`);
    await topBar.openProjectSelector();
    await screenshot(page, '09-project-selector');
    await topBar.chooseProject('My project');
    await page.waitForURL(/\/projects\/2$/);
    // The top bar follows the route's project once the page has rendered it.
    await topBar.projectName.filter({ hasText: 'My project' }).waitFor();
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('[data-testid="project-settings-name"]')?.value === 'My project',
    );

    await topBar.openUserMenu();
    await screenshot(page, '10-user-menu');
    await page.keyboard.press('Escape');

    await page.goto(`${lantern.baseUrl}/help/1`);
    await expect(page.getByTestId('help-sdk-env').innerText()).resolves.toContain(
      'OTEL_EXPORTER_OTLP_HEADERS=lantern-dsn=',
    );
    await screenshot(page, '11-help');
  });

  it("shows a project's settings read-only: chips without a remove cross, 'None' for no pinned attributes", async () => {
    explainFailures();
    const settings = new ProjectSettingsPage(page);
    const pinned = page.getByTestId('project-pinned-attrs');
    await page.goto(`${lantern.baseUrl}/projects/1`);
    await settings.root.waitFor();
    await expect(pinned.locator('.MuiChip-label').allInnerTexts()).resolves.toEqual([
      'service.name',
      'host.name',
      'deployment.environment',
    ]);
    await expect(pinned.locator('.MuiChip-deleteIcon').count()).resolves.toBe(0);
    await expect(settings.name.isDisabled()).resolves.toBe(true);
    await screenshot(page, '04b-project-settings-read-only');

    await page.goto(`${lantern.baseUrl}/projects/3`);
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('[data-testid="project-settings-name"]')?.value === 'Bare',
    );
    const input = pinned.locator('input');
    await expect(input.getAttribute('placeholder')).resolves.toBe('None');
    // MUI hides a placeholder under a label sitting in the field; here it shows.
    await expect(input.evaluate((el) => getComputedStyle(el, '::placeholder').opacity)).resolves.not.toBe('0');
    const byEnv = page.getByTestId('project-group-by-env').locator('input');
    await expect(byEnv.isChecked()).resolves.toBe(true);
    await expect(byEnv.isDisabled()).resolves.toBe(true);
    await screenshot(page, '04c-project-settings-bare');
  });

  it('shows the not-found page for the pages of a project that does not exist, with no sections of it in the top bar', async () => {
    explainFailures();
    const topBar = new TopBar(page);
    await page.goto(`${lantern.baseUrl}/projects/1`);
    await new ProjectSettingsPage(page).root.waitFor();
    for (const path of ['/projects/99', '/overview/99', '/alerting/99/alerts']) {
      await page.goto(`${lantern.baseUrl}${path}`);
      await expect(page.getByTestId('not-found').innerText(), path).resolves.toContain(
        "Sorry, the requested page can't be found.",
      );
      await expect(page.title()).resolves.toBe('Page not found · Lantern');
      await expect(topBar.projectName.innerText()).resolves.toBe('Select a project');
      await expect(topBar.settingsLink.count()).resolves.toBe(0);
      await expect(topBar.section('overview').count()).resolves.toBe(0);
    }
    await expect(new ProjectSettingsPage(page).root.count()).resolves.toBe(0);
    await screenshot(page, '08c-unknown-project');
    // The picker still leads to the projects there are.
    await topBar.openProjectSelector();
    await topBar.chooseProject('My project');
    await page.waitForURL(/\/alerting\/2\/alerts/);
    await page.getByTestId('alerting-layout').waitFor();
    expect(browserErrors).toEqual([]);
  });

  it("someone signing in after another user's session ended under an open page gets their own settings, not the other's", async () => {
    explainFailures();
    const login = new LoginPage(page);
    const email = new ChannelEmailPage(page);
    // The first user turns off e-mails on metric alerts (everyone starts with them on).
    await email.goto(lantern.baseUrl, 1);
    await expect(email.address.inputValue()).resolves.toBe(DEFAULT_LOGIN.email);
    await expect(email.flag('notifyOnMetrics').isChecked()).resolves.toBe(true);
    await email.flag('notifyOnMetrics').click();
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/notification-channels/email') && r.request().method() === 'PUT',
    );
    await email.save.click();
    expect((await saved).status()).toBe(200);
    await page.getByTestId('alerting-tab-monitors').click();
    await page.waitForURL(/\/alerting\/1\/monitors/);
    // Settled: the list has come, so the session ends between two calls, not under this one.
    await page.getByText('Notify on all errors').waitFor();

    // The session ends elsewhere (a copy of the cookie signs out); the next call here answers 401.
    const elsewhere = await browser.newContext();
    await elsewhere.addCookies(await context.cookies());
    expect((await elsewhere.request.post(`${lantern.baseUrl}/api/v1/users/logout`)).status()).toBe(200);
    await elsewhere.close();
    await page.getByTestId('alerting-tab-channels').click();
    await page.waitForURL(/\/login\?next=/);

    // Bob signs in at this browser, comes back to Channels, then opens his e-mail settings.
    await login.signIn(SECOND_LOGIN.email, SECOND_LOGIN.password);
    await page.waitForURL(/\/alerting\/1\/channels/);
    await page.getByTestId('alerting-tab-email').click();
    await page.getByTestId('email-settings-form').waitFor();
    await expect(email.address.inputValue()).resolves.toBe(SECOND_LOGIN.email);
    // His own choice, not the one the first user left on this page.
    await expect(email.flag('notifyOnMetrics').isChecked()).resolves.toBe(true);
    await screenshot(page, '08d-second-user-email-settings');
    expect(browserErrors).toEqual([]);
  });

  it("drops the last user's toast when they sign out: the next user does not see it", async () => {
    explainFailures();
    const login = new LoginPage(page);
    const email = new ChannelEmailPage(page);
    const topBar = new TopBar(page);
    const snackbar = page.getByTestId('snackbar');
    // Bob (signed in by the test before) saves his e-mail settings: a success toast, up for 10 s.
    await email.goto(lantern.baseUrl, 1);
    await email.flag('notifyOnNewErrors').click();
    await email.save.click();
    await snackbar.filter({ hasText: 'Email notification settings have been updated' }).waitFor();

    // He signs out at once: Login shows no toast of his.
    await topBar.signOut();
    await page.waitForURL(/\/login$/);
    await login.submit.waitFor();
    await snackbar.waitFor({ state: 'detached', timeout: 3000 });
    await screenshot(page, '07b-signed-out-no-toast');

    // The first user signs in at this browser well within those 10 s: still no toast.
    await login.signIn(DEFAULT_LOGIN.email, DEFAULT_LOGIN.password);
    await page.waitForURL(/\/overview\/\d+$/);
    await topBar.projectName.waitFor();
    await expect(snackbar.count()).resolves.toBe(0);
    await screenshot(page, '07c-next-user-no-toast');
    expect(browserErrors).toEqual([]);
  });

  it('reloads once when a page of an earlier build asks for a chunk this build does not have', async () => {
    explainFailures();
    const created = await page.request.post(`${lantern.baseUrl}/api/v1/metrics/1/dashboards`, {
      data: { name: 'Stale build' },
    });
    expect(created.status()).toBe(200);
    const { dashboard } = (await created.json()) as { dashboard: { id: string } };
    // The first request for the YAML tab's chunk gets what a newer server answers for a chunk it
    // does not have (its 404); the page reloads and then finds it.
    let refused = 0;
    await page.route(/\/assets\/DashYamlTab-[^/]+\.js$/, async (route) => {
      if (refused++ > 0) return route.continue();
      await route.fulfill({ status: 404, contentType: 'text/plain', body: 'not in this build' });
    });
    let loads = 0;
    page.on('load', () => loads++);
    try {
      await page.goto(`${lantern.baseUrl}/metrics/1/${dashboard.id}?tab=yaml`);
      await page.getByTestId('yaml-tab').waitFor();
      expect(refused).toBe(2);
      expect(loads).toBe(2);
      await screenshot(page, '12-stale-build-reloaded');
    } finally {
      await page.unroute(/\/assets\/DashYamlTab-[^/]+\.js$/);
    }
  });
});
