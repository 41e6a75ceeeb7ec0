import type { Locator, Page } from 'playwright-core';

/** The Grid tab of a dashboard: toolbar, gauge row, panels and their menus. */
export class DashGridPage {
  readonly root: Locator;
  readonly panels: Locator;
  readonly gauges: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('grid-tab');
    this.panels = page.getByTestId('grid-panel');
    this.gauges = page.getByTestId('gauge-card');
  }

  async goto(baseUrl: string, projectId: number, dashId: string, query = ''): Promise<void> {
    await this.page.goto(`${baseUrl}/metrics/${projectId}/${dashId}?tab=grid${query}`);
    await this.root.waitFor();
  }

  panel(name: string): Locator {
    return this.page.locator(`[data-testid="grid-panel"][data-panel-name="${name}"]`);
  }

  /** The react-grid-layout item around a panel (its box is the panel's position and size). */
  item(name: string): Locator {
    return this.page.getByTestId('grid-item').filter({ has: this.panel(name) });
  }

  gauge(name: string): Locator {
    return this.page.locator(`[data-testid="gauge-card"][data-gauge-name="${name}"]`);
  }

  async addVisualization(kind: 'Chart' | 'Table' | 'Heatmap' | 'PromQL chart'): Promise<void> {
    await this.page.getByTestId('add-visualization').click();
    await this.page.getByRole('menuitem', { name: kind, exact: true }).click();
  }

  async panelAction(
    name: string,
    action: 'View' | 'Edit' | 'Duplicate' | 'Monitor' | 'Copy as YAML' | 'Open in explore' | 'Delete',
  ): Promise<void> {
    await this.panel(name).getByTestId('panel-menu').click();
    await this.page.getByRole('menuitem', { name: action }).click();
  }

  /** Drags a panel by its title bar by (dx, dy) pixels with real mouse moves. */
  async dragPanel(name: string, dx: number, dy: number): Promise<void> {
    await this.item(name).scrollIntoViewIfNeeded();
    const box = (await this.panel(name).getByTestId('panel-title').boundingBox())!;
    await this.moveMouse(box.x + 40, box.y + box.height / 2, dx, dy);
  }

  /** Resizes a panel from its bottom-right handle by (dx, dy) pixels. */
  async resizePanel(name: string, dx: number, dy: number): Promise<void> {
    await this.item(name).scrollIntoViewIfNeeded();
    const handle = this.item(name).locator('.react-resizable-handle-se');
    const box = (await handle.boundingBox())!;
    await this.moveMouse(box.x + box.width / 2, box.y + box.height / 2, dx, dy);
  }

  private async moveMouse(x: number, y: number, dx: number, dy: number): Promise<void> {
    const m = this.page.mouse;
    await m.move(x, y);
    await m.down();
    for (let i = 1; i <= 10; i++) await m.move(x + (dx * i) / 10, y + (dy * i) / 10);
    await m.up();
  }

  /** The panel's box in the grid (relative to the grid's top left), once it stops moving (items animate to their place). */
  async box(name: string): Promise<{ x: number; y: number; width: number; height: number }> {
    const read = async () => {
      const grid = (await this.page.getByTestId('grid-layout').boundingBox())!;
      const b = (await this.item(name).boundingBox())!;
      return {
        x: Math.round(b.x - grid.x),
        y: Math.round(b.y - grid.y),
        width: Math.round(b.width),
        height: Math.round(b.height),
      };
    };
    let last = await read();
    for (let i = 0; i < 50; i++) {
      await this.page.waitForTimeout(50);
      const next = await read();
      if (JSON.stringify(next) === JSON.stringify(last)) return next;
      last = next;
    }
    return last;
  }
}

/** A column or gauge form dialog (chart, table, heatmap, gauge). */
export class DashFormDialog {
  readonly root: Locator;
  readonly preview: Locator;

  constructor(
    readonly page: Page,
    testId: 'chart-form' | 'table-form' | 'heatmap-form' | 'promql-form' | 'gauge-form',
  ) {
    this.root = page.getByTestId(testId);
    this.preview = this.root.getByTestId('form-preview');
  }

  field(testId: string): Locator {
    return this.root.getByTestId(testId);
  }

  async save(): Promise<void> {
    await this.root.getByTestId('form-save').click();
    await this.root.waitFor({ state: 'detached' });
  }
}
