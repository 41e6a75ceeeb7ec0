import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { systemRoutes } from '@lantern/shared';
import { screenshot, signedInPage, type BrowserLease } from '@lantern/testkit/pages/browser';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * Issue 22: the API reference at /api/docs, linked from the user menu and the help page, renders
 * the OpenAPI document with nothing fetched from outside the server.
 */

const t = useLantern();
let browser: BrowserLease;
let page: Page;
const errors: string[] = [];
/** Every request the pages tried to make to a host other than the server's; each one is refused. */
const outside: string[] = [];

beforeAll(async () => {
  ({ browser, page } = await signedInPage(t.lantern.baseUrl, errors));
  await page.context().route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1' || url.hostname === 'localhost') return route.continue();
    outside.push(url.href);
    return route.abort();
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

describe('the API reference', () => {
  it('is linked from the user menu and the help page', async () => {
    await page.getByTestId('user-menu').click();
    await expect.poll(() => page.getByTestId('api-docs').getAttribute('href')).toBe(systemRoutes.apiDocs.path);
    await page.keyboard.press('Escape');
    await page.goto(`${t.lantern.baseUrl}/help/1`);
    await expect.poll(() => page.getByTestId('help-api-docs').getAttribute('href')).toBe(systemRoutes.apiDocs.path);
  });

  it('shows the operations from the OpenAPI document without any outside request', async () => {
    onTestFailed(() => screenshot(page, 'api-docs-failed', { always: true }));
    await page.goto(`${t.lantern.baseUrl}${systemRoutes.apiDocs.path}`);
    // Every tag is listed, closed; a click opens a tag's operations.
    const tag = (name: string) => page.locator('.opblock-tag', { hasText: name }).first();
    await tag('prometheus').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('.opblock-tag').count()).toBeGreaterThanOrEqual(10);
    for (const name of ['auth', 'tracing', 'dashboards', 'prometheus', 'projects']) await tag(name).click();
    await page.locator('.opblock-summary-path', { hasText: '/api/v1/users/login' }).first().waitFor();
    await expect.poll(() => page.locator('.opblock').count()).toBeGreaterThanOrEqual(60);
    // An operation opens with its summary and its answer's schema.
    await page.locator('#operations-projects-getProject .opblock-summary').click();
    const op = page.locator('#operations-projects-getProject');
    await op.getByText('A project and where its telemetry is sent', { exact: false }).first().waitFor();
    await op.locator('.responses-wrapper').getByText('200', { exact: true }).first().waitFor();
    await screenshot(page, 'api-docs');
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  });
});
