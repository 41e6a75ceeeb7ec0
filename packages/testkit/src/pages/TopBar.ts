import type { Locator, Page } from 'playwright-core';

export class TopBar {
  readonly root: Locator;
  readonly projectName: Locator;
  readonly settingsLink: Locator;
  readonly search: Locator;
  readonly userMenu: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('top-bar');
    this.projectName = page.getByTestId('project-name');
    this.settingsLink = page.getByTestId('project-settings-link');
    this.search = page.getByTestId('app-search');
    this.userMenu = page.getByTestId('user-menu');
  }

  section(key: 'overview' | 'spans' | 'metrics' | 'alerting'): Locator {
    return this.page.getByTestId(`nav-${key}`);
  }

  async openProjectSettings(): Promise<void> {
    await this.settingsLink.click();
    await this.page.getByTestId('project-settings').waitFor();
  }

  async openProjectSelector(): Promise<void> {
    await this.page.getByTestId('project-picker').click();
    await this.page.getByTestId('project-selector').waitFor();
  }

  /** Types into the selector's filter and picks the first match with Enter. */
  async chooseProject(name: string): Promise<void> {
    await this.page.getByTestId('project-filter').fill(name);
    await this.page.getByTestId('project-option').filter({ hasText: name }).first().waitFor();
    await this.page.getByTestId('project-filter').press('Enter');
  }

  async searchFor(text: string): Promise<void> {
    await this.search.fill(text);
    await this.search.press('Enter');
  }

  async openUserMenu(): Promise<{ name: Locator; email: Locator }> {
    await this.userMenu.click();
    await this.page.getByTestId('sign-out').waitFor();
    return { name: this.page.getByTestId('user-name'), email: this.page.getByTestId('user-email') };
  }

  async signOut(): Promise<void> {
    await this.openUserMenu();
    await this.page.getByTestId('sign-out').click();
  }
}
