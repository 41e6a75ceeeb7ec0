import { randomBytes } from 'node:crypto';
import type { BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { DEFAULT_LOGIN, PROJECT2_TOKEN } from '@lantern/testkit/harness';
import { leaseBrowser, screenshot, type BrowserLease } from '@lantern/testkit/pages/browser';
import { LoginPage } from '@lantern/testkit/pages/LoginPage';
import { SpanCard } from '@lantern/testkit/pages/SpanCard';
import { TracePage } from '@lantern/testkit/pages/TracePage';
import { sendOtlp } from '@lantern/testkit/tracingData';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * Getting around (issue 20 item 6): deep links survive signing in, the tab title names the page
 * and the project, a span card has an address that can be shared, 'Create new user' explains how,
 * and React Router has nothing to warn about.
 */

const PROJECT = { id: 2, name: 'My project' };
const traceId = randomBytes(16).toString('hex');
/** OTLP span ids (hex); the app names spans by their stored id, read back in beforeAll. */
const otlpIds = { root: randomBytes(8).toString('hex'), child: randomBytes(8).toString('hex') };
let childId = '';

function smallTrace(): unknown {
  const start = BigInt(Date.now() - 5_000) * 1_000_000n;
  const ms = (n: number) => String(start + BigInt(n) * 1_000_000n);
  const span = (spanId: string, parentSpanId: string | undefined, name: string, from: number, to: number) => ({
    traceId,
    spanId,
    ...(parentSpanId ? { parentSpanId } : {}),
    name,
    kind: 1,
    startTimeUnixNano: ms(from),
    endTimeUnixNano: ms(to),
    attributes: [{ key: 'e2e.test', value: { stringValue: 'navigation' } }],
  });
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'chat-link' } }] },
        scopeSpans: [
          {
            scope: { name: 'e2e' },
            spans: [
              span(otlpIds.root, undefined, 'share me', 0, 100),
              span(otlpIds.child, otlpIds.root, 'the linked span', 10, 60),
            ],
          },
        ],
      },
    ],
  };
}

describe('navigation', () => {
  const t = useLantern();
  let browser: BrowserLease;
  let context: BrowserContext;
  let page: Page;
  const warnings: string[] = [];
  const browserErrors: string[] = [];
  const traceUrl = () => `${t.lantern.baseUrl}/traces/${PROJECT.id}/${traceId}`;

  const watch = (p: Page) => {
    p.on('pageerror', (err) => browserErrors.push(err.message));
    p.on('console', (msg: ConsoleMessage) => {
      if (msg.type() === 'warning' || msg.type() === 'error') warnings.push(msg.text());
    });
  };

  beforeAll(async () => {
    await sendOtlp(
      t.lantern.baseUrl,
      `http://${PROJECT2_TOKEN}@127.0.0.1:${t.lantern.httpPort}/${PROJECT.id}`,
      smallTrace(),
    );
    // Ingest commits in the background: wait until the trace can be read.
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const res = await fetch(`${t.lantern.baseUrl}/api/v1/tracing/${PROJECT.id}/traces/${traceId}`, {
        headers: { cookie: t.cookie },
      });
      if (res.ok) {
        const body = (await res.json()) as { root: { children?: { id: string }[] } };
        childId = body.root.children?.[0]?.id ?? '';
        break;
      }
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(childId).not.toBe('');
    browser = await leaseBrowser();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.lantern.baseUrl });
    page = await context.newPage();
    watch(page);
  });

  const explainFailures = () =>
    onTestFailed(() =>
      console.error(
        `--- Lantern output ---\n${t.lantern.output().slice(-5000)}\n--- browser ---\n${[...browserErrors, ...warnings].join('\n')}`,
      ),
    );

  afterAll(async () => {
    await browser?.close();
  });

  it('a deep link opened without a session comes back to that page after sign-in', async () => {
    explainFailures();
    await page.goto(traceUrl());
    await page.waitForURL(/\/login\?next=/);
    const login = new LoginPage(page);
    await login.signIn(DEFAULT_LOGIN.email, DEFAULT_LOGIN.password);
    await page.waitForURL(traceUrl());
    const trace = new TracePage(page);
    await trace.root.waitFor();
    await expect(trace.title.innerText()).resolves.toBe('share me');

    // The session ends while the app is open (signed out elsewhere, expired): the next page the
    // user opens answers 401, and signing in again brings them to that page, not Home.
    await trace.openSpan('the linked span');
    const logout = await page.evaluate(() =>
      fetch('/api/v1/users/logout', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }).then((r) => r.status),
    );
    expect(logout).toBe(200);
    await trace.dialog.getByTestId('span-breadcrumbs').getByText('Span', { exact: true }).click();
    const spanPath = `/traces/${PROJECT.id}/${traceId}/${childId}`;
    await page.waitForURL(`${t.lantern.baseUrl}/login?next=${encodeURIComponent(spanPath)}`);
    await login.signIn(DEFAULT_LOGIN.email, DEFAULT_LOGIN.password);
    await page.waitForURL(`${t.lantern.baseUrl}${spanPath}`);
    await expect(new SpanCard(page).title.innerText()).resolves.toBe('the linked span');
  });

  it('the tab title follows the page: <page> · <project> · Lantern', async () => {
    explainFailures();
    await page.goto(traceUrl());
    await page.getByTestId('trace-page').waitFor();
    await expect.poll(() => page.title()).toBe(`View trace share me · ${PROJECT.name} · Lantern`);
    await page.goto(`${t.lantern.baseUrl}/projects/${PROJECT.id}`);
    await page.getByTestId('project-settings').waitFor();
    await expect.poll(() => page.title()).toBe(`Project settings · ${PROJECT.name} · Lantern`);
    await page.goto(`${t.lantern.baseUrl}/alerting/${PROJECT.id}/monitors`);
    await expect.poll(() => page.title()).toBe(`Monitors · ${PROJECT.name} · Lantern`);
    await page.goto(`${t.lantern.baseUrl}/no/such/page`);
    await expect.poll(() => page.title()).toBe('Page not found · Lantern');
  });

  it('a user who asked for less motion gets no transitions; one who did not gets them', async () => {
    explainFailures();
    await page.goto(`${t.lantern.baseUrl}/alerting/${PROJECT.id}/monitors`);
    const button = page.getByTestId('create-monitor');
    const transition = () => button.evaluate((el) => getComputedStyle(el).transitionDuration);
    // The test browser asks for reduced motion (testkit's leaseBrowser).
    await expect(transition()).resolves.toMatch(/^0s(, 0s)*$/);
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await expect(transition()).resolves.not.toMatch(/^0s(, 0s)*$/);
    await page.emulateMedia({ reducedMotion: 'reduce' });
  });

  it('the calendar menu sets "Last N hours" and a From / To range, and the address keeps each', async () => {
    explainFailures();
    const address = () => new URL(page.url()).searchParams;
    await page.goto(`${t.lantern.baseUrl}/overview/${PROJECT.id}`);
    const openMenu = async () => {
      await page.getByTestId('date-calendar').filter({ visible: true }).first().click();
      await page.getByTestId('date-range-menu').waitFor();
    };
    await openMenu();
    await page.getByTestId('custom-amount').fill('3');
    await page.getByTestId('date-range-menu').getByRole('combobox').click();
    await page.getByRole('option', { name: 'hours' }).click();
    await page.getByTestId('custom-duration-apply').click();
    await page.getByTestId('date-range-menu').waitFor({ state: 'hidden' });
    await expect.poll(() => address().get('time_dur')).toBe(String(3 * 3600));

    // From two days ago at 10:00: To follows and keeps the 3 hours; the range is fixed, in the past.
    const day = new Date(Date.now() - 2 * 86_400_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    const dayText = `${pad(day.getDate())}-${pad(day.getMonth() + 1)}-${day.getFullYear()}`;
    await openMenu();
    await page.getByTestId('custom-from-day').fill(dayText);
    await page.getByTestId('custom-from-time').fill('10:00');
    await expect(page.getByTestId('custom-to-time').inputValue()).resolves.toBe('13:00');
    await page.getByTestId('custom-to-time').fill('12:30');
    await page.getByTestId('custom-range-apply').click();
    const from = new Date(day.getFullYear(), day.getMonth(), day.getDate(), 10, 0);
    await expect.poll(() => address().get('time_gte')).toBe(from.toISOString().replace(/[-:]/g, '').slice(0, 15));
    expect(address().get('time_dur')).toBe(String(2.5 * 3600));
    // The project has no data in that range: the help card shows, and its toolbar keeps the range
    // picker, so the user can leave the empty range.
    await page.getByTestId('tracing-help').waitFor();
    const picker = page.getByTestId('tracing-help').getByTestId('date-range-picker');
    await expect.poll(() => picker.getByTestId('date-from-text').textContent()).toMatch(/ 10:00$/);
    expect(await picker.getByTestId('date-next').isEnabled()).toBe(true);
    await picker.getByTestId('date-now').click();
    // Back to a range that ends now, which holds the trace sent above: the overview returns.
    await page.getByTestId('tracing-help').waitFor({ state: 'detached' });
    await expect
      .poll(() => page.getByTestId('date-range-picker').filter({ visible: true }).first().getAttribute('data-now'))
      .toBe('true');
  });

  it('Back returns to the range the earlier address had, and it stays', async () => {
    explainFailures();
    const dur = () => new URL(page.url()).searchParams.get('time_dur');
    await page.goto(`${t.lantern.baseUrl}/overview/${PROJECT.id}?time_dur=86400`);
    await page.getByTestId('date-calendar').filter({ visible: true }).first().waitFor();
    await page.getByTestId('date-calendar').filter({ visible: true }).first().click();
    await page.getByTestId('date-range-menu').waitFor();
    await page.getByTestId('custom-amount').fill('3');
    await page.getByTestId('date-range-menu').getByRole('combobox').click();
    await page.getByRole('option', { name: 'hours' }).click();
    await page.getByTestId('custom-duration-apply').click();
    await expect.poll(dur).toBe(String(3 * 3600));
    await page.goBack();
    await expect.poll(dur).toBe('86400');
    // Nothing writes the later range back over it afterwards.
    await page.waitForTimeout(500);
    expect(dur()).toBe('86400');
    await page.goForward();
    await expect.poll(dur).toBe(String(3 * 3600));
    await page.waitForTimeout(500);
    expect(dur()).toBe(String(3 * 3600));
  });

  it('a span card has a URL that can be shared: opening it shows the same span', async () => {
    explainFailures();
    const trace = new TracePage(page);
    await trace.goto(t.lantern.baseUrl, PROJECT.id, traceId);
    await trace.openSpan('the linked span');
    // The address bar names the open span ...
    await page.waitForURL(`${traceUrl()}?span=${childId}`);
    const shared = page.url();
    await screenshot(page, 'navigation-01-span-dialog');
    // ... and closing the card takes it away again.
    await trace.closeDialog();
    await page.waitForURL(traceUrl());

    // Someone else opens the shared address: the same span's card, over its trace.
    const other = await context.newPage();
    watch(other);
    await other.goto(shared);
    const card = new SpanCard(other, other.getByTestId('span-dialog'));
    await card.title.waitFor();
    await expect(card.title.innerText()).resolves.toBe('the linked span');
    await expect(
      other.locator('[data-testid="span-row"][data-active="true"] [data-testid="span-name"]').innerText(),
    ).resolves.toBe('the linked span');

    // The card's own 'Copy link' gives the span page's address.
    await card.root.getByTestId('span-copy-link').click();
    const copied = await other.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(`${t.lantern.baseUrl}/traces/${PROJECT.id}/${traceId}/${childId}`);
    await other.goto(copied);
    await other.getByTestId('span-page').waitFor();
    await expect(new SpanCard(other).title.innerText()).resolves.toBe('the linked span');
    await other.close();
  });

  it("'Create new user' explains that users live in the config file and offers the snippet", async () => {
    explainFailures();
    const fresh = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await fresh.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.lantern.baseUrl });
    const anon = await fresh.newPage();
    watch(anon);
    const login = new LoginPage(anon);
    await login.goto(t.lantern.baseUrl);
    await anon.getByTestId('create-user-link').click();
    const dialog = anon.getByTestId('create-user-dialog');
    await dialog.waitFor();
    await expect(dialog.innerText()).resolves.toContain('lantern.yml');
    // A file that lists only the new user removes the built-in admin: the dialog says so.
    await expect(dialog.innerText()).resolves.toMatch(
      /whole list: the built-in admin@lantern\.local exists only while/,
    );
    const snippet = await dialog.getByTestId('create-user-snippet').innerText();
    expect(snippet).toMatch(/^users:\n {2}- name: .+\n {4}email: .+\n {4}password: .+/);
    await screenshot(anon, 'navigation-02-create-user');
    await dialog.getByTestId('copy-button').click();
    expect((await anon.evaluate(() => navigator.clipboard.readText())).trimEnd()).toBe(snippet.trimEnd());
    await dialog.getByTestId('create-user-close').click();
    await dialog.waitFor({ state: 'hidden' });
    await fresh.close();
  });

  it('Create a project, opened by its address, explains the config file without saying there are no projects', async () => {
    explainFailures();
    await page.goto(`${t.lantern.baseUrl}/help/projects`);
    const card = page.getByTestId('project-create');
    await card.getByText('Projects are defined under').waitFor();
    const text = await card.innerText();
    expect(text).toContain('lantern.yml');
    expect(text).not.toContain('no projects');
    await screenshot(page, 'navigation-03-create-project');
  });

  it('leaves no React Router warning and no page error behind', () => {
    expect(warnings.filter((w) => /HydrateFallback|React Router/i.test(w))).toEqual([]);
    expect(browserErrors).toEqual([]);
  });
});
