import type { Locator, Page } from 'playwright-core';

export type ChannelField = 'name' | 'webhookUrl' | 'url' | 'payload';

/** The channel form, in the New channel dialog or on an edit page (scoped by `root`). */
export class ChannelForm {
  readonly save: Locator;
  readonly cancel: Locator;
  readonly formError: Locator;

  constructor(
    readonly page: Page,
    readonly root: Locator = page.getByTestId('channel-form'),
  ) {
    this.save = root.getByTestId('channel-save');
    this.cancel = root.getByTestId('channel-cancel');
    this.formError = root.getByTestId('channel-form-error');
  }

  input(field: ChannelField): Locator {
    return this.root.getByTestId(`channel-${field}`);
  }

  /** The text under a field: its hint, or its error message. */
  helper(field: ChannelField): Locator {
    return this.root.getByTestId(`channel-${field}-helper`);
  }

  async isInvalid(field: ChannelField): Promise<boolean> {
    return (await this.input(field).getAttribute('aria-invalid')) === 'true';
  }

  async fill(values: Partial<Record<ChannelField, string>>): Promise<void> {
    for (const [field, value] of Object.entries(values)) await this.input(field as ChannelField).fill(value);
  }
}
