import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

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

const SCREENSHOT_DIR = new URL('../screenshots/', import.meta.url).pathname;

/** Saves a full-page screenshot to e2e/screenshots/<name>.png (gitignored) for a human to look at. */
export async function screenshot(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: opts.fullPage ?? true, animations: 'disabled' });
}
