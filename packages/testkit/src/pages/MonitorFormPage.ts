import type { Locator, Page } from 'playwright-core';

/** A monitor page (spec platform §2.9, §2.10): the header with its breadcrumbs and facts, and the form. */
export class MonitorFormPage {
  readonly form: Locator;
  readonly header: Locator;
  readonly breadcrumbs: Locator;
  readonly state: Locator;
  readonly toggle: Locator;
  readonly dateRange: Locator;

  constructor(
    readonly page: Page,
    readonly type: 'metric' | 'error',
  ) {
    this.form = page.getByTestId(`${type}-monitor-form`);
    this.header = this.form.getByTestId('monitor-header');
    this.breadcrumbs = this.form.getByTestId('monitor-breadcrumbs');
    this.state = this.form.getByTestId('monitor-form-state');
    this.toggle = this.form.getByTestId('monitor-form-toggle');
    this.dateRange = this.form.getByTestId('date-range-picker');
  }

  /** The breadcrumb texts, e.g. ['Project', 'Monitors', 'Edit metric monitor']. */
  async crumbs(): Promise<string[]> {
    await this.breadcrumbs.waitFor();
    return this.breadcrumbs.locator('li.MuiBreadcrumbs-li').allInnerTexts();
  }

  field(testId: string): Locator {
    return this.form.getByTestId(testId);
  }

  /** Picks "Last {text}" in the date range picker's period menu. */
  async choosePeriod(text: string): Promise<void> {
    await this.dateRange.getByTestId('period-picker').click();
    await this.page
      .getByTestId('period-option')
      .filter({ hasText: new RegExp(`^Last ${text}$`) })
      .click();
  }

  async periodOptions(): Promise<string[]> {
    await this.dateRange.getByTestId('period-picker').click();
    const items = this.page.getByTestId('period-option');
    await items.first().waitFor();
    const texts = await items.allInnerTexts();
    await this.page.keyboard.press('Escape');
    await items.first().waitFor({ state: 'detached' });
    return texts;
  }
}
