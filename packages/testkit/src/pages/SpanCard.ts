import type { Locator, Page } from 'playwright-core';

/** The span card, in a dialog or on the span page. */
export class SpanCard {
  readonly root: Locator;
  readonly title: Locator;
  readonly attrRows: Locator;

  constructor(
    readonly page: Page,
    scope?: Locator,
  ) {
    const within = scope ?? page.locator('body');
    this.root = within.getByTestId('span-card');
    this.title = this.root.getByTestId('span-card-title');
    this.attrRows = this.root.getByTestId('attr-row');
  }

  tab(name: 'attrs' | 'sql' | 'sql-pretty' | 'stacktrace' | 'events' | 'percentiles'): Locator {
    return this.root.getByTestId(`span-tab-${name}`);
  }

  fact(name: 'env' | 'service' | 'kind' | 'status' | 'time' | 'duration'): Locator {
    return this.root.getByTestId(`header-${name}`);
  }

  async attrKeys(): Promise<string[]> {
    return this.attrRows.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key') ?? ''));
  }
}
