import type { Page } from 'playwright-core';
import { afterAll, beforeAll, onTestFailed } from 'vitest';
import type { TestLantern } from '../useLantern';
import { leaseBrowser, screenshot, signedInContext, type BrowserLease } from './browser';

/**
 * A browser signed in to the file's server (a stored session, no page opened yet), opened before its tests (after `before`, e.g. sending
 * telemetry) and closed after them; `explainFailures()` prints the server's output and the page's
 * errors and saves a screenshot when a test fails; `errors()` lists the page's uncaught errors.
 */
export function useSignedInPage(server: TestLantern, name: string, before?: () => Promise<void>) {
  const s = {
    browser: undefined as BrowserLease | undefined,
    page: undefined as unknown as Page,
    errors: [] as string[],
  };
  beforeAll(async () => {
    await before?.();
    s.browser = await leaseBrowser();
    // A stored session, not the Login form: the tests open their own pages first.
    const context = await signedInContext(s.browser, server.lantern.baseUrl, {
      viewport: { width: 1440, height: 1000 },
    });
    s.page = await context.newPage();
    s.page.on('pageerror', (err) => s.errors.push(err.message));
  });
  afterAll(async () => s.browser?.close());
  return {
    page: () => s.page,
    /** The page's uncaught errors so far. */
    errors: () => s.errors,
    explainFailures: () =>
      onTestFailed(async () => {
        console.error(
          `--- Lantern output ---\n${server.lantern.output().slice(-4000)}\n--- browser errors ---\n${s.errors.join('\n')}`,
        );
        await screenshot(s.page, `${name}-failure`, { always: true }).catch(() => undefined);
      }),
  };
}
