import type { Locator, Page } from 'playwright-core';
import { AlertCard } from './AlertCard';

/** The alert list (`/alerting/:projectId/alerts`): sidebar facets, selection bar, table, pager, dialog. */
export class AlertListPage {
  readonly root: Locator;
  readonly search: Locator;
  readonly rows: Locator;
  readonly empty: Locator;
  readonly reload: Locator;
  readonly selectPage: Locator;
  readonly selectAll: Locator;
  readonly closeSelected: Locator;
  readonly openSelected: Locator;
  readonly deleteSelected: Locator;
  readonly closeAll: Locator;
  readonly sort: Locator;
  readonly pagerText: Locator;
  readonly resetAll: Locator;
  readonly dialog: Locator;
  readonly tabs: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('alert-list');
    this.search = page.getByTestId('alert-search');
    this.rows = page.getByTestId('alert-row');
    this.empty = page.getByTestId('alert-list-empty');
    this.reload = page.getByTestId('alert-reload');
    this.selectPage = page.getByTestId('alert-select-page').locator('input');
    this.selectAll = page.getByTestId('alert-select-all');
    this.closeSelected = page.getByTestId('alert-close-selected');
    this.openSelected = page.getByTestId('alert-open-selected');
    this.deleteSelected = page.getByTestId('alert-delete-selected');
    this.closeAll = page.getByTestId('alert-close-all');
    this.sort = page.getByTestId('alert-sort');
    this.pagerText = page.getByTestId('alert-pager-text');
    this.resetAll = page.getByTestId('alert-reset-all');
    this.dialog = page.getByTestId('alert-dialog');
    this.tabs = page.getByTestId('alerting-layout').getByRole('tab');
  }

  async goto(baseUrl: string, projectId: number, query = ''): Promise<void> {
    await this.page.goto(`${baseUrl}/alerting/${projectId}/alerts${query}`);
    await this.root.waitFor();
  }

  row(name: string): Locator {
    return this.rows.filter({ has: this.page.getByTestId('alert-row-name').getByText(name, { exact: true }) });
  }

  async names(): Promise<string[]> {
    return this.rows.getByTestId('alert-row-name').allInnerTexts();
  }

  /** Clicks Reload until `count` rows are listed (the evaluator runs on its own timer). */
  async reloadUntilRows(count: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if ((await this.rows.count()) >= count) return;
      if (Date.now() > deadline) throw new Error(`expected ${count} alerts, the list shows ${await this.rows.count()}`);
      // The next answer, then look again.
      const answer = this.page.waitForResponse((r) => r.url().includes('/alerts?'), { timeout: 10_000 });
      await this.reload.click();
      await answer;
      await this.page.waitForFunction(
        () => !document.querySelector('[data-testid="alert-list"] .MuiLinearProgress-root'),
      );
    }
  }

  facet(key: string): Locator {
    return this.page.locator(`[data-testid="alert-facet"][data-key="${key}"]`);
  }

  facetValue(key: string, value: string): Locator {
    return this.facet(key).getByTestId('facet-value').filter({ hasText: value });
  }

  /** "value count" per listed value of a facet. */
  async facetCounts(key: string): Promise<string[]> {
    const texts = await this.facet(key).getByTestId('facet-value').allInnerTexts();
    return texts.map((t) => {
      const [value, count] = t.trim().split(/\s+/);
      return `${value} ${Number.parseFloat(count)}`;
    });
  }

  async open(name: string): Promise<AlertCard> {
    await this.row(name).getByTestId('alert-row-name').click();
    const card = new AlertCard(this.page, this.dialog);
    await card.root.waitFor();
    return card;
  }

  check(name: string): Locator {
    return this.row(name).getByTestId('alert-row-checkbox').locator('input');
  }

  /** The app's yes/no dialog. */
  confirmDialog(): Locator {
    return this.page.getByRole('dialog').filter({ hasText: /Do you really|Close all/ });
  }
}
