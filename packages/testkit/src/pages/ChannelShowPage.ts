import type { Locator, Page } from 'playwright-core';
import { ChannelForm } from './ChannelForm';
import type { ChannelKind } from './ChannelListPage';

/** A channel's edit page: breadcrumbs, the form, the delivery panel and the test button. */
export class ChannelShowPage {
  readonly root: Locator;
  readonly breadcrumbs: Locator;
  readonly form: ChannelForm;
  readonly delivery: Locator;
  readonly sendTest: Locator;
  readonly testResult: Locator;
  readonly testTitle: Locator;
  readonly testError: Locator;
  readonly testBody: Locator;
  readonly webhookHelp: Locator;
  readonly notFound: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('channel-show');
    this.breadcrumbs = page.getByTestId('channel-breadcrumbs');
    this.form = new ChannelForm(page, this.root.getByTestId('channel-form'));
    this.delivery = page.getByTestId('channel-delivery-details');
    this.sendTest = page.getByTestId('channel-test-send');
    this.testResult = page.getByTestId('channel-test-result');
    this.testTitle = page.getByTestId('channel-test-title');
    this.testError = page.getByTestId('channel-test-error');
    this.testBody = page.getByTestId('channel-test-body');
    this.webhookHelp = page.getByTestId('webhook-help');
    this.notFound = page.getByTestId('channel-not-found');
  }

  async goto(baseUrl: string, projectId: number, kind: ChannelKind, id: number | string): Promise<void> {
    await this.page.goto(`${baseUrl}/alerting/${projectId}/channels/${kind}/${id}`);
    await this.page.locator('[data-testid="channel-form"], [data-testid="channel-not-found"]').first().waitFor();
  }

  /** The channel id from the address (the page opens after a create). */
  idFromUrl(): number {
    return Number(/\/channels\/\w+\/(\d+)/.exec(this.page.url())![1]);
  }

  /** "Project / Channels / Type", whitespace folded. */
  async crumbs(): Promise<string> {
    await this.breadcrumbs.locator('[data-testid="channel-breadcrumb-project"][data-loaded="true"]').waitFor();
    return (await this.breadcrumbs.innerText()).replace(/\s+/g, ' ').trim();
  }

  deliveryField(name: 'state' | 'last-delivered' | 'pending' | 'failed' | 'last-error' | 'failures'): Locator {
    return this.page.getByTestId(`delivery-${name}`);
  }

  async sendTestNotification(): Promise<void> {
    await this.sendTest.click();
    await this.testResult.waitFor();
  }
}
