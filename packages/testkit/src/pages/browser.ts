import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { DEFAULT_LOGIN, signIn } from '../harness';

/** Headless Chromium as installed by the OS package; no downloaded browser builds. Its caller closes it. */
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

/** The worker's one browser for the test files it runs, started on first use, ended with the worker. */
let shared: Promise<Browser> | undefined;

/** A test file's share of the worker's browser: what it opens through the lease, `close()` closes. */
export interface BrowserLease {
  newContext(opts?: BrowserContextOptions): Promise<BrowserContext>;
  /** Closes the contexts opened through this lease; the browser stays for the worker's next file. */
  close(): Promise<void>;
}

/**
 * A lease on the worker's browser. The e2e project keeps one module cache per worker (vitest.config.ts),
 * so its files share one Chromium (a launch is ~2 CPU-s) and each gets contexts of its own: one file's
 * cookies, storage and pages are never seen by the next. A browser that crashed is started again.
 */
export async function leaseBrowser(): Promise<BrowserLease> {
  shared ??= launchBrowser().then((b) => {
    b.on('disconnected', () => (shared = undefined));
    return b;
  });
  const browser = await shared;
  const contexts = new Set<BrowserContext>();
  return {
    async newContext(opts) {
      // Reduced motion (the app then draws no transitions, ripples or pulsing skeletons: each repaints
      // every frame while it runs, ~15-25 % of a dashboard file's CPU); a test may ask for motion.
      const context = await browser.newContext({ reducedMotion: 'reduce', ...opts });
      contexts.add(context);
      return context;
    },
    async close() {
      const closed = Promise.all([...contexts].map((c) => c.close())).then(() => true);
      contexts.clear();
      // A context whose page does not let go within 10 s (a renderer stuck on a loaded machine) takes
      // the browser with it, as closing the browser always did; the next file starts another.
      const timer = new Promise<false>((resolve) => setTimeout(() => resolve(false), 10_000).unref());
      if (!(await Promise.race([closed, timer]))) await browser.close();
    },
  };
}

const SCREENSHOT_DIR = new URL('../../../../e2e/screenshots/', import.meta.url).pathname;

/**
 * Saves a full-page screenshot to e2e/screenshots/<name>.png (gitignored) for a human to look at, when
 * LANTERN_SCREENSHOTS is set (`LANTERN_SCREENSHOTS=1 npx vitest run --project e2e <file>`): a
 * full-page capture costs Chromium ~0.3 CPU-s, and the suite's ~220 of them were a minute of every run
 * that no assertion read. A failing test's screenshot (`always`) is taken regardless.
 */
export async function screenshot(
  page: Page,
  name: string,
  opts: { fullPage?: boolean; always?: boolean } = {},
): Promise<void> {
  if (!process.env.LANTERN_SCREENSHOTS && !opts.always) return;
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
  browser: Pick<Browser, 'newContext'>,
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

/** A 1440x900 page of `browser` signed in as the default user (a stored session), landed on the Overview; page errors are pushed to `errors`. */
export async function openSignedIn(
  browser: Pick<Browser, 'newContext'>,
  baseUrl: string,
  errors: string[],
): Promise<Page> {
  const page = await (await signedInContext(browser, baseUrl)).newPage();
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(`${baseUrl}/`);
  await page.waitForURL(/\/overview\/\d+/);
  return page;
}

/** `openSignedIn` on a lease of the worker's browser (test files). */
export async function signedInPage(baseUrl: string, errors: string[]): Promise<{ browser: BrowserLease; page: Page }> {
  const browser = await leaseBrowser();
  return { browser, page: await openSignedIn(browser, baseUrl, errors) };
}
