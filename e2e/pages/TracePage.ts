import type { Locator, Page } from 'playwright-core';

export class TracePage {
  readonly root: Locator;
  readonly title: Locator;
  readonly rows: Locator;
  readonly spanNames: Locator;
  readonly notFound: Locator;
  readonly tryAgain: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('trace-page');
    this.title = page.getByTestId('span-header-title');
    this.rows = page.getByTestId('span-row');
    this.spanNames = page.getByTestId('span-name');
    this.notFound = page.getByTestId('trace-not-found');
    this.tryAgain = page.getByTestId('trace-find-retry');
  }

  /** The trace lookup may answer 'not found' until ingest has committed the spans; retry like a user would. */
  async waitForTrace(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      await this.root.or(this.notFound).first().waitFor({ timeout: Math.max(1, deadline - Date.now()) });
      if (await this.root.isVisible()) return;
      await this.page.waitForTimeout(1000);
      await this.tryAgain.click();
    }
    throw new Error('the trace page did not appear');
  }

  async spanNameTexts(): Promise<string[]> {
    return (await this.spanNames.allInnerTexts()).map((t) => t.trim());
  }
}
