import type { Locator, Page } from 'playwright-core';

export class ProjectSettingsPage {
  readonly root: Locator;
  readonly name: Locator;
  readonly dsnTable: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('project-settings');
    this.name = page.getByTestId('project-settings-name');
    this.dsnTable = page.getByTestId('project-dsn-table');
  }

  async dsn(transport: 'http' | 'grpc'): Promise<string> {
    return (await this.page.getByTestId(`dsn-${transport}`).innerText()).trim();
  }
}
