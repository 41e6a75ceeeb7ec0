import type { Locator, Page } from 'playwright-core';

export type EmailFlag = 'notifyOnMetrics' | 'notifyOnNewErrors' | 'notifyOnRecurringErrors';

/** The personal e-mail notification settings page. */
export class ChannelEmailPage {
  readonly root: Locator;
  readonly address: Locator;
  readonly smtpDisabled: Locator;
  readonly matchers: Locator;
  readonly addMatcher: Locator;
  readonly save: Locator;
  readonly sendTest: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('email-notifications');
    this.address = page.getByTestId('email-address');
    this.smtpDisabled = page.getByTestId('email-smtp-disabled');
    this.matchers = page.getByTestId('email-matcher');
    this.addMatcher = page.getByTestId('email-matcher-add');
    this.save = page.getByTestId('email-save');
    this.sendTest = page.getByTestId('email-test-send');
  }

  async goto(baseUrl: string, projectId: number): Promise<void> {
    await this.page.goto(`${baseUrl}/alerting/${projectId}/email`);
    await this.page.getByTestId('email-settings-form').waitFor();
  }

  flag(name: EmailFlag): Locator {
    return this.page.getByTestId(`email-${name}`);
  }

  matcherAttr(i: number): Locator {
    return this.matchers.nth(i).getByTestId('email-matcher-attr');
  }

  matcherValue(i: number): Locator {
    return this.matchers.nth(i).getByTestId('email-matcher-value');
  }
}
