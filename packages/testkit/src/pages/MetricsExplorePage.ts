import type { Locator, Page } from 'playwright-core';

/** Metrics explore (`/metrics/:projectId/explore`) and its 'Explore metric' dialog. */
export class MetricsExplorePage {
  readonly keyList: Locator;
  readonly rows: Locator;
  readonly dialog: Locator;
  readonly chart: Locator;

  constructor(readonly page: Page) {
    this.keyList = page.getByTestId('attr-key-list');
    this.rows = page.getByTestId('metric-row');
    this.dialog = page.getByTestId('explore-metric-dialog');
    this.chart = this.dialog.getByTestId('explore-metric-chart');
  }

  async goto(baseUrl: string, projectId: number, query = ''): Promise<void> {
    await this.page.goto(`${baseUrl}/metrics/${projectId}/explore${query}`);
    await this.page.getByTestId('metrics-explore').waitFor();
  }

  /** Checks or unchecks an attribute key in the side list. */
  async toggleKey(key: string): Promise<void> {
    await this.keyList.getByTestId('attr-key').filter({ hasText: key }).first().click();
  }

  /** Names of the metrics the table shows, once it shows exactly `count` rows. */
  async metricNames(count: number): Promise<string[]> {
    await this.page.waitForFunction((n) => document.querySelectorAll('[data-testid="metric-row"]').length === n, count);
    return this.rows.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-metric') ?? ''));
  }

  /** The table's sorted column and its direction, as the header tells a screen reader: e.g. `Timeseries descending`. */
  async sortedBy(): Promise<string> {
    const th = this.page.getByTestId('metrics-table').locator('th[aria-sort]');
    return `${(await th.innerText()).trim()} ${await th.getAttribute('aria-sort')}`;
  }

  /** Clicks a column header of the metrics table (Metric, Instrument or Timeseries). */
  async sortBy(column: 'Metric' | 'Instrument' | 'Timeseries'): Promise<void> {
    await this.page.getByTestId('metrics-table').getByRole('button', { name: column, exact: true }).click();
  }

  async open(metric: string): Promise<void> {
    await this.page.locator(`[data-testid="metric-row"][data-metric="${metric}"]`).click();
    await this.dialog.waitFor();
  }

  /** The alias field of the dialog's first metric, and the text under it (`$alias`, or what is wrong). */
  aliasInput(): Locator {
    return this.dialog.getByTestId('picked-metric-alias').first();
  }
  aliasHelper(): Locator {
    return this.dialog.getByTestId('picked-metric-alias-helper').first();
  }

  /** Replaces the query with `text` in the raw editor. */
  async editQuery(text: string): Promise<void> {
    await this.dialog.getByTestId('query-edit').click();
    await this.dialog.getByTestId('query-raw').fill(text);
    await this.dialog.getByTestId('query-raw').press('Enter');
  }

  /** Legend rows of the dialog's chart (series names with avg / last / min / max). */
  legendRows(): Locator {
    return this.chart.locator('tbody tr');
  }
}
