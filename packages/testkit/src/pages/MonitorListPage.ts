import type { Locator, Page } from 'playwright-core';

/** The monitor list (spec platform §2.8): the Create monitor menu, the table rows and their actions. */
export class MonitorListPage {
  readonly root: Locator;
  readonly table: Locator;
  readonly empty: Locator;
  readonly createButton: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('monitor-list');
    this.table = page.getByTestId('monitor-table');
    this.empty = page.getByTestId('monitors-empty');
    this.createButton = page.getByTestId('create-monitor');
  }

  async goto(baseUrl: string, projectId: number): Promise<void> {
    await this.page.goto(`${baseUrl}/alerting/${projectId}/monitors`);
    await this.root.waitFor();
    await this.page.locator('[data-testid="monitor-table"], [data-testid="monitors-empty"]').first().waitFor();
  }

  row(name: string): Locator {
    return this.page.locator(`[data-testid="monitor-row"][data-monitor="${name}"]`);
  }

  state(name: string): Locator {
    return this.row(name).getByTestId('monitor-state');
  }

  /** Opens the Create monitor menu and gives its item texts. */
  async createMenuItems(): Promise<string[]> {
    await this.createButton.click();
    const items = this.page.getByRole('menuitem');
    await items.first().waitFor();
    return items.allInnerTexts();
  }

  /** Create monitor > Create metrics monitor / Create errors monitor. */
  async create(kind: 'metrics' | 'errors'): Promise<void> {
    if (!(await this.page.getByRole('menuitem').first().isVisible())) await this.createButton.click();
    await this.page.getByRole('menuitem', { name: `Create ${kind} monitor` }).click();
  }

  /** Clicks the row itself (its Type cell: no link, no button) the way a person clicks a table row. */
  async clickRow(name: string): Promise<void> {
    await this.row(name).locator('td').nth(1).click();
  }
}
