import type { Locator, Page } from 'playwright-core';

/** Overview -> Service graph: the graph, its search and legend, the edge table and the card. */
export class ServiceGraphPage {
  readonly root: Locator;
  readonly chart: Locator;
  readonly search: Locator;
  readonly legend: Locator;
  readonly edges: Locator;
  readonly card: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('service-graph');
    this.chart = page.getByTestId('service-graph-chart');
    this.search = page.getByTestId('service-graph-search');
    this.legend = page.getByTestId('service-graph-legend');
    this.edges = page.getByTestId('service-graph-edge');
    this.card = page.getByTestId('service-graph-card');
  }

  /** The edge rows as `client -> server`, in table order. */
  async edgeTexts(): Promise<string[]> {
    return this.edges.evaluateAll((rows) =>
      rows.map((r) => `${r.getAttribute('data-client')} -> ${r.getAttribute('data-server')}`),
    );
  }

  edge(client: string, server: string): Locator {
    return this.page.locator(`[data-testid="service-graph-edge"][data-client="${client}"][data-server="${server}"]`);
  }

  /** Opens a service's card from an edge row where it is the server. */
  async openNodeFromTable(name: string): Promise<void> {
    await this.page
      .locator(`[data-testid="service-graph-edge"][data-server="${name}"] [data-testid="edge-server"] button`)
      .first()
      .click();
    await this.card.waitFor();
  }

  async sortBy(column: 'client' | 'server' | 'connectionType' | 'calls' | 'errorRate' | 'p50' | 'p99'): Promise<void> {
    await this.page.getByTestId(`edge-sort-${column}`).click();
  }
}
