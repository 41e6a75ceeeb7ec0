import type { Locator, Page } from 'playwright-core';

export class TracePage {
  readonly root: Locator;
  readonly title: Locator;
  readonly rows: Locator;
  readonly spanNames: Locator;
  readonly toggles: Locator;
  readonly systemBarItems: Locator;
  readonly notFound: Locator;
  readonly tryAgain: Locator;
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('trace-page');
    this.title = page.getByTestId('span-header-title');
    this.rows = page.getByTestId('span-row');
    this.spanNames = page.getByTestId('span-name');
    this.toggles = page.getByTestId('span-toggle');
    this.systemBarItems = page.getByTestId('system-bar-item');
    this.notFound = page.getByTestId('trace-not-found');
    this.tryAgain = page.getByTestId('trace-find-retry');
    this.dialog = page.getByTestId('span-dialog');
  }

  async goto(baseUrl: string, projectId: number, traceId: string): Promise<void> {
    await this.page.goto(`${baseUrl}/traces/${projectId}/${traceId}`);
    await this.root.waitFor();
  }

  /** The trace lookup may answer 'not found' until ingest has committed the spans; retry like a user would. */
  async waitForTrace(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      await this.root
        .or(this.notFound)
        .first()
        .waitFor({ timeout: Math.max(1, deadline - Date.now()) });
      if (await this.root.isVisible()) return;
      await this.page.waitForTimeout(1000);
      await this.tryAgain.click();
    }
    throw new Error('the trace page did not appear');
  }

  async spanNameTexts(): Promise<string[]> {
    return (await this.spanNames.allInnerTexts()).map((t) => t.trim());
  }

  row(name: string): Locator {
    return this.rows.filter({ has: this.page.getByTestId('span-name').getByText(name, { exact: true }) }).first();
  }

  /** Clicks a span row and waits for its span card dialog. */
  async openSpan(name: string): Promise<void> {
    await this.row(name).click();
    await this.dialog.getByTestId('span-card').waitFor();
  }

  async closeDialog(): Promise<void> {
    await this.page.getByTestId('span-dialog-close').click();
    await this.dialog.waitFor({ state: 'hidden' });
  }
}
