import type { Locator, Page } from 'playwright-core';

/** Explore spans: toolbar, tabs, query builder, groups and spans. */
export class ExplorePage {
  readonly root: Locator;
  readonly groupRows: Locator;
  readonly groupNames: Locator;
  readonly groupsCount: Locator;
  readonly chips: Locator;
  readonly spanRows: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('explore-spans');
    this.groupRows = page.getByTestId('group-row');
    this.groupNames = page.getByTestId('group-name');
    this.groupsCount = page.getByTestId('groups-count');
    this.chips = page.getByTestId('query-chip');
    this.spanRows = page.getByTestId('span-list-row');
  }

  async goto(baseUrl: string, projectId: number, query = ''): Promise<void> {
    await this.page.goto(`${baseUrl}/spans/${projectId}${query}`);
    await this.root.waitFor();
  }

  async waitForGroups(): Promise<void> {
    await this.groupRows.first().waitFor();
  }

  async groupNameTexts(): Promise<string[]> {
    return (await this.groupNames.allInnerTexts()).map((t) => t.trim());
  }

  async chipTexts(): Promise<string[]> {
    return (await this.page.getByTestId('query-chip-text').allInnerTexts()).map((t) => t.trim());
  }

  /** Opens a builder menu (Search, Duration, Where, ...) and returns its card. */
  async openMenu(name: 'search' | 'duration' | 'status' | 'where' | 'agg' | 'group-by'): Promise<Locator> {
    await this.page.getByTestId(`qb-${name}`).click();
    const menu = this.page.getByTestId(`qb-${name}-menu`);
    await menu.waitFor();
    return menu;
  }

  url(): URL {
    return new URL(this.page.url());
  }
}
