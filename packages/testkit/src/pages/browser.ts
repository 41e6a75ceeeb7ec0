import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { DEFAULT_LOGIN } from '../harness';
import { LoginPage } from './LoginPage';

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
 * A browser with one 1440x900 page signed in as the default user (landed on the Overview); page
 * errors are pushed to `errors`.
 */
export async function signedInPage(baseUrl: string, errors: string[]): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchBrowser();
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  page.on('pageerror', (err) => errors.push(err.message));
  const login = new LoginPage(page);
  await login.goto(baseUrl);
  await login.signIn(DEFAULT_LOGIN.email, DEFAULT_LOGIN.password);
  await page.waitForURL(/\/overview\/\d+/);
  return { browser, page };
}
