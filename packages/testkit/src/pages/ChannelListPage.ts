import type { Locator, Page } from 'playwright-core';

export type ChannelKind = 'slack' | 'webhook' | 'alertmanager';

/** The notification channel list: create menu, table rows with their actions, the confirm dialog. */
export class ChannelListPage {
  readonly root: Locator;
  readonly rows: Locator;
  readonly empty: Locator;
  readonly createButton: Locator;
  readonly reload: Locator;
  readonly dialog: Locator;
  readonly dialogTitle: Locator;
  readonly confirmTitle: Locator;
  readonly confirmMessage: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('channel-list');
    this.rows = page.getByTestId('channel-row');
    this.empty = page.getByTestId('channels-empty');
    this.createButton = page.getByTestId('create-channel');
    this.reload = page.getByTestId('channels-reload');
    this.dialog = page.getByTestId('new-channel-dialog');
    this.dialogTitle = page.getByTestId('new-channel-title');
    this.confirmTitle = page.getByTestId('confirm-title');
    this.confirmMessage = page.getByTestId('confirm-message');
  }

  async goto(baseUrl: string, projectId: number): Promise<void> {
    await this.page.goto(`${baseUrl}/alerting/${projectId}/channels`);
    await this.root.waitFor();
    await this.page.locator('[data-testid="channel-table"], [data-testid="channels-empty"]').first().waitFor();
  }

  row(name: string): Locator {
    return this.page.locator(`[data-testid="channel-row"][data-channel-name="${name}"]`);
  }

  state(name: string): Locator {
    return this.row(name).getByTestId('channel-state');
  }

  async openCreate(kind: ChannelKind): Promise<void> {
    await this.createButton.click();
    await this.page.getByTestId(`create-channel-${kind}`).click();
    await this.dialog.getByTestId('channel-form').waitFor();
  }

  async pause(name: string): Promise<void> {
    await this.row(name).getByTestId('channel-pause').click();
    await this.row(name).getByTestId('channel-unpause').waitFor();
  }

  async unpause(name: string): Promise<void> {
    await this.row(name).getByTestId('channel-unpause').click();
    await this.row(name).getByTestId('channel-pause').waitFor();
  }

  /** Opens the delete confirmation; answer it with `answerConfirm`. */
  async askDelete(name: string): Promise<void> {
    await this.row(name).getByTestId('channel-delete').click();
    await this.confirmTitle.waitFor();
  }

  async answerConfirm(yes: boolean): Promise<void> {
    await this.page.getByTestId(yes ? 'confirm-yes' : 'confirm-no').click();
    await this.confirmTitle.waitFor({ state: 'hidden' });
  }
}
