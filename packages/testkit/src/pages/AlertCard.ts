import type { Locator, Page } from 'playwright-core';

/** The alert card, in the list's dialog or on AlertShow. */
export class AlertCard {
  readonly root: Locator;
  readonly title: Locator;
  readonly breadcrumbs: Locator;
  readonly closeButton: Locator;
  readonly reopenButton: Locator;
  readonly events: Locator;
  readonly spanCard: Locator;
  readonly dateRange: Locator;
  /** A metric alert's buttons. */
  readonly viewMonitor: Locator;
  readonly matchingSpans: Locator;

  constructor(
    readonly page: Page,
    scope?: Locator,
  ) {
    const within = scope ?? page.locator('body');
    this.root = within.getByTestId('alert-card');
    this.title = this.root.getByTestId('alert-card-title');
    this.breadcrumbs = this.root.getByTestId('alert-breadcrumbs');
    this.closeButton = this.root.getByTestId('alert-close');
    this.reopenButton = this.root.getByTestId('alert-reopen');
    this.events = this.root.getByTestId('alert-event');
    this.spanCard = this.root.getByTestId('span-card');
    // The card's own range picker (an error alert's span card has another one).
    this.dateRange = this.root.getByTestId('fixed-date-range').first();
    this.viewMonitor = this.root.getByTestId('alert-view-monitor');
    this.matchingSpans = this.root.getByTestId('alert-matching-spans');
  }

  fact(name: 'state' | 'occurrences' | 'time' | 'first-seen' | 'trigger'): Locator {
    return this.root.getByTestId(`alert-fact-${name}`);
  }

  async eventTexts(): Promise<string[]> {
    return this.events.getByTestId('alert-event-text').allInnerTexts();
  }

  async state(): Promise<string | null> {
    return this.root.getAttribute('data-state');
  }
}
