import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { DEFAULT_LOGIN, signIn } from '../harness';

/** Headless Chromium as installed by the OS package; no downloaded browser builds. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.LANTERN_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

const SCREENSHOT_DIR = new URL('../../../../e2e/screenshots/', import.meta.url).pathname;

/** Saves a full-page screenshot to e2e/screenshots/<name>.png (gitignored) for a human to look at. */
export async function screenshot(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({
    path: join(SCREENSHOT_DIR, `${name}.png`),
    fullPage: opts.fullPage ?? true,
    animations: 'disabled',
  });
}

/**
 * The stored session of a browser signed in as `login` (a Playwright storageState): the session
 * cookie the server gave the API sign-in, and the app's "signed in" hint (features/auth/sessionHint.ts)
 * that a sign-in leaves in the page's storage. A test that is not about signing in starts from it
 * instead of the Login page's form (the form is tested in foundation, navigation and sso).
 */
export async function storedSession(
  baseUrl: string,
  login = DEFAULT_LOGIN,
): Promise<NonNullable<Exclude<BrowserContextOptions['storageState'], string>>> {
  const cookie = await signIn(baseUrl, login);
  const eq = cookie.indexOf('=');
  const url = new URL(baseUrl);
  return {
    cookies: [
      {
        name: cookie.slice(0, eq),
        value: cookie.slice(eq + 1),
        domain: url.hostname,
        path: '/',
        expires: -1,
        httpOnly: true,
        secure: false,
        sameSite: 'Lax',
      },
    ],
    origins: [{ origin: url.origin, localStorage: [{ name: 'lantern.signedIn', value: '1' }] }],
  };
}

/** A browser context (1440x900 unless `opts` say otherwise) signed in as `login` from a stored session. */
export async function signedInContext(
  browser: Browser,
  baseUrl: string,
  opts: BrowserContextOptions = {},
  login = DEFAULT_LOGIN,
): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 1440, height: 900 },
    ...opts,
    storageState: await storedSession(baseUrl, login),
  });
}

/**
 * A browser with one 1440x900 page signed in as the default user (a stored session), landed on the
 * Overview; page errors are pushed to `errors`.
 */
export async function signedInPage(baseUrl: string, errors: string[]): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchBrowser();
  const page = await (await signedInContext(browser, baseUrl)).newPage();
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(`${baseUrl}/`);
  await page.waitForURL(/\/overview\/\d+/);
  return { browser, page };
}
