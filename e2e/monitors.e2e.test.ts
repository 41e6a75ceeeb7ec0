import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestMeter } from '@lantern/testkit/otlpMetrics';
import { AlertListPage } from '@lantern/testkit/pages/AlertListPage';
import { screenshot } from '@lantern/testkit/pages/browser';
import { MetricsExplorePage } from '@lantern/testkit/pages/MetricsExplorePage';
import { MonitorFormPage } from '@lantern/testkit/pages/MonitorFormPage';
import { MonitorListPage } from '@lantern/testkit/pages/MonitorListPage';
import { useSignedInPage } from '@lantern/testkit/pages/session';
import { FAST_ALERTING_ENV } from '@lantern/testkit/harness';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * Monitors as a person sets them up, over a gauge sent with the OpenTelemetry metrics SDK: the
 * empty list and its Create monitor menu, a metric monitor through its form (every validation
 * message at its field, the one-column hint, nothing saved until valid, the preview chart with its
 * legend table and its "would have fired" line), the form prefilled from a tracing Monitor menu's
 * address and from a dashboard panel's (its column map's unit), an error monitor with matchers
 * (both notify switches on, a blank matcher row always there), each monitor opened by a click on
 * its row with the header of its type (2.9 / 2.10, the error monitor's 1-day range in the
 * address), pause / resume / delete, and
 * the metric monitor firing on the server's own one-minute evaluator: its state in the list, its
 * open alert through the list's chip, and the alert card's chart.
 */
const server = useLantern({ env: { LANTERN_INGEST_FLUSH_INTERVAL_MS: '50', ...FAST_ALERTING_ENV } });

async function sendQueueMetrics(): Promise<void> {
  const m = createTestMeter('http-proto', {
    httpUrl: server.lantern.baseUrl,
    grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
    dsn: server.dsn,
    serviceName: 'worker',
  });
  const depth = m.meter.createObservableGauge('queue.depth', { description: 'Jobs waiting' });
  depth.addCallback((r) => {
    r.observe(42, { queue: 'emails' });
    r.observe(3, { queue: 'reports' });
  });
  // A gauge with a unit: OTLP 'ms' is stored as milliseconds, and one job takes no time at all.
  const took = m.meter.createObservableGauge('job.duration', { description: 'Last run', unit: 'ms' });
  took.addCallback((r) => {
    r.observe(1500, { job: 'export' });
    r.observe(250, { job: 'import' });
    r.observe(0, { job: 'noop' });
  });
  await m.flush();
  await m.shutdown();
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${server.lantern.baseUrl}/api/v1/metrics/1`, { headers: { cookie: server.cookie } });
    const names = ((await res.json()) as { metrics: { name: string }[] }).metrics.map((x) => x.name);
    if (names.includes('queue.depth') && names.includes('job.duration')) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('queue.depth and job.duration never listed');
}

/** A reader the test collects from itself, to send each collection as if made some minutes ago. */
class CollectingReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * host.load, a gauge of 12 hosts (host-01 .. host-12) over the three minutes before now, sent with
 * the OTLP/protobuf exporter: each host idles at (13 - n) * 5 and peaks at 100 + n in the last
 * minute. So host-12 has the largest max (112) and is last by name, while host-01 has the largest
 * avg (73.67): the two orders differ, and neither is the server's.
 */
async function sendHostLoad(): Promise<void> {
  const reader = new CollectingReader();
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ 'service.name': 'fleet' }),
    readers: [reader],
  });
  const exporter = new OTLPMetricExporter({
    url: `${server.lantern.baseUrl}/v1/metrics`,
    headers: { 'lantern-dsn': server.dsn },
  });
  let minute = 0;
  provider
    .getMeter('lantern-tests')
    .createObservableGauge('host.load', { description: 'Load per host' })
    .addCallback((r) => {
      for (let n = 1; n <= 12; n++)
        r.observe(minute === 2 ? 100 + n : (13 - n) * 5, { host: `host-${String(n).padStart(2, '0')}` });
    });
  for (minute = 0; minute < 3; minute++) {
    const { resourceMetrics, errors } = await reader.collect();
    expect(errors).toEqual([]);
    const shift = (3 - minute) * 60;
    for (const scope of resourceMetrics.scopeMetrics)
      for (const metric of scope.metrics)
        for (const point of metric.dataPoints) {
          const p = point as { startTime: [number, number]; endTime: [number, number] };
          p.startTime = [p.startTime[0] - shift, p.startTime[1]];
          p.endTime = [p.endTime[0] - shift, p.endTime[1]];
        }
    const code = await new Promise<number>((done) => exporter.export(resourceMetrics, (r) => done(r.code)));
    expect(code).toBe(0);
  }
  await provider.shutdown();
  await exporter.shutdown();
}

interface SavedMonitor {
  id: string;
  name: string;
  params: { columnUnit?: string; forDuration?: number; forDurationUnit?: string };
}

async function monitorApi(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${server.lantern.baseUrl}/api/v1/projects/1/monitors${path}`, {
    method,
    headers: { cookie: server.cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

async function savedMonitor(name: string): Promise<SavedMonitor> {
  const { monitors } = (await monitorApi('GET', '')) as { monitors: SavedMonitor[] };
  const found = monitors.find((m) => m.name === name);
  if (!found) throw new Error(`no monitor ${name}`);
  return found;
}

async function monitorsSaved(): Promise<{ name: string; state: string; type: string }[]> {
  const res = await fetch(`${server.lantern.baseUrl}/api/v1/projects/1/monitors`, {
    headers: { cookie: server.cookie },
  });
  return ((await res.json()) as { monitors: { name: string; state: string; type: string }[] }).monitors;
}

describe('monitors', () => {
  const session = useSignedInPage(server, 'monitors', sendQueueMetrics);
  const explainFailures = session.explainFailures;
  let page: Page;
  beforeAll(() => {
    page = session.page();
  });

  it("starts with the project's default error monitor, and says there are none once it is deleted", async () => {
    explainFailures();
    const list = new MonitorListPage(page);
    await list.goto(server.lantern.baseUrl, 1);
    const row = list.row('Notify on all errors');
    await expect(row.locator('td').nth(1).innerText()).resolves.toContain('error');
    await expect(list.state('Notify on all errors').innerText()).resolves.toBe('active');
    await row.getByTestId('monitor-delete').click();
    await expect(page.getByText('Do you really want to delete "Notify on all errors" monitor?').count()).resolves.toBe(
      1,
    );
    await page.getByRole('button', { name: 'Yes' }).click();
    await list.empty.waitFor();
    await expect(list.empty.innerText()).resolves.toBe('There are no monitors');
  });

  it('creates a metric monitor: validation at its fields, the preview and how often it would have fired', async () => {
    explainFailures();
    const list = new MonitorListPage(page);
    await expect(list.createMenuItems()).resolves.toEqual(['Create metrics monitor', 'Create errors monitor']);
    await list.create('metrics');
    const form = page.getByTestId('metric-monitor-form');
    await form.waitFor();
    await expect(new MonitorFormPage(page, 'metric').crumbs()).resolves.toEqual([
      expect.any(String),
      'Monitors',
      'New metric monitor',
    ]);
    // Nothing chosen yet: the preview asks for a metric, and no legend says "There are no metrics".
    await expect(form.getByTestId('monitor-chart-empty').innerText()).resolves.toBe('Select a metric');
    await expect(form.getByTestId('monitor-legend-empty').count()).resolves.toBe(0);
    await form.getByTestId('monitor-save').click();
    await expect(form.getByText('Field is required').count()).resolves.toBe(1);
    await expect(form.getByTestId('metrics-error').innerText()).resolves.toBe('at least one metric is required');

    await form.getByTestId('monitor-name-input').fill('Email queue backlog');
    await form.getByTestId('metric-search').click();
    await page.getByTestId('metric-option').filter({ hasText: 'queue.depth' }).click();
    // The picked gauge starts with its default aggregation: the preview charts it without Aggregate.
    await expect.poll(() => form.getByTestId('query-part').allInnerTexts()).toEqual(['avg($depth)']);
    await form.getByTestId('monitor-chart').waitFor();
    await expect.poll(() => form.getByTestId('monitor-column').inputValue()).toBe('avg($depth)');
    await screenshot(page, 'monitors-01-picked-default');
    // Renaming the alias renames it in the query.
    await form.getByTestId('picked-metric-alias').fill('');
    await expect(form.getByTestId('picked-metric-alias-helper').innerText()).resolves.toBe('Alias is required');
    await expect(form.getByTestId('query-part').allInnerTexts()).resolves.toEqual(['avg($depth)']);
    await form.getByTestId('picked-metric-alias').fill('jobs');
    await expect.poll(() => form.getByTestId('query-part').allInnerTexts()).toEqual(['avg($jobs)']);
    await form.getByTestId('picked-metric-alias').fill('depth');
    await expect.poll(() => form.getByTestId('query-part').allInnerTexts()).toEqual(['avg($depth)']);
    await form.getByTestId('query-part').filter({ hasText: 'avg($depth)' }).locator('.MuiChip-deleteIcon').click();
    await form.getByTestId('add-aggregation').click();
    await page.getByRole('menuitem', { name: 'max($depth)' }).click();
    await form.getByTestId('add-group-by').click();
    await page.getByRole('menuitem', { name: 'queue', exact: true }).click();
    await form.getByTestId('monitor-chart').waitFor();
    await expect(form.getByTestId('monitor-column').inputValue()).resolves.toBe('max($depth)');
    // The legend table: one row per queue with avg, last, min, max.
    const legend = form.getByTestId('legend-table');
    await expect(legend.locator('thead th').allInnerTexts()).resolves.toEqual(['metric', 'avg', 'last', 'min', 'max']);
    await expect
      .poll(async () =>
        (await legend.getByTestId('legend-row').allInnerTexts()).map((r) => r.split('\t')[0].trim()).sort(),
      )
      .toEqual(['max($depth{queue=emails})', 'max($depth{queue=reports})']);
    await expect(legend.getByTestId('legend-row').filter({ hasText: 'queue=emails' }).innerText()).resolves.toMatch(
      /\t42(\.0+)?\t42/,
    );

    // A second column: the hint says why the query cannot be monitored, and Save sends nothing.
    await form.getByTestId('add-aggregation').click();
    await page.getByRole('menuitem', { name: 'min($depth)' }).click();
    const hint = form.getByTestId('monitor-column-hint');
    await expect.poll(() => hint.innerText()).toBe('The query returns 2 columns, but only a single column is allowed.');
    await expect(form.getByTestId('monitor-column').inputValue()).resolves.toBe('');
    await form.getByTestId('monitor-max').fill('20');
    await form.getByTestId('monitor-save').click();
    await screenshot(page, 'monitors-01a-two-columns');
    expect(await monitorsSaved()).toEqual([]);
    await expect(form.isVisible()).resolves.toBe(true);
    await form.getByTestId('monitor-max').fill('');
    // Back to one column: the hint goes away.
    await form.getByTestId('query-part').filter({ hasText: 'min($depth)' }).locator('.MuiChip-deleteIcon').click();
    await hint.waitFor({ state: 'detached' });
    await expect(form.getByTestId('monitor-column').inputValue()).resolves.toBe('max($depth)');

    await form.getByTestId('monitor-save').click();
    await expect(form.innerText()).resolves.toContain('At least min value is required');
    await form.getByTestId('monitor-min').fill('10');
    await form.getByTestId('monitor-max').fill('5');
    await form.getByTestId('monitor-save').click();
    await expect(form.innerText()).resolves.toContain('Max value should be greater than min');
    // The line under the preview says what is wrong, not to set a min or max that are both set.
    await expect
      .poll(() => form.getByTestId('monitor-would-fire').innerText())
      .toBe('Fix the form to see how often the monitor would have fired: Max value should be greater than min.');
    expect(await monitorsSaved()).toEqual([]);

    await form.getByTestId('monitor-min').fill('');
    await form.getByTestId('monitor-max').fill('20');
    await form.getByTestId('monitor-for').getByRole('combobox').click();
    await page.getByRole('option', { name: '1 minute' }).click();
    // The emails queue (42) is over 20 in every point of the preview.
    await expect
      .poll(() => form.getByTestId('monitor-would-fire').innerText())
      .toMatch(/would have fired [1-9]\d* times?/);
    await screenshot(page, 'monitors-01-metric-form');
    await form.getByTestId('monitor-save').click();
    await page.getByTestId('monitor-table').waitFor();
    const row = page.locator('[data-testid="monitor-row"][data-monitor="Email queue backlog"]');
    await row.waitFor();
    await expect(row.innerText()).resolves.toContain('metric');
    expect(await monitorsSaved()).toEqual([expect.objectContaining({ name: 'Email queue backlog', type: 'metric' })]);
  });

  it('opens prefilled from a tracing Monitor menu address', async () => {
    explainFailures();
    const q = new URLSearchParams({
      name: 'http:api > GET /users',
      metric: 'lantern.tracing.spans',
      alias: 'spans',
      query: 'p90($spans) | where .group_id = 123',
    });
    await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors/new-metric?${q}`);
    const form = page.getByTestId('metric-monitor-form');
    await form.waitFor();
    await expect(form.getByTestId('monitor-name-input').inputValue()).resolves.toBe('http:api > GET /users');
    await expect(form.getByTestId('picked-metric-name').inputValue()).resolves.toBe('lantern.tracing.spans');
    await expect(form.getByTestId('picked-metric-alias').inputValue()).resolves.toBe('spans');
    await expect
      .poll(() => form.getByTestId('query-part').locator('.MuiChip-label').allInnerTexts())
      .toEqual(['p90($spans)', 'where .group_id = 123']);
    // No spans were sent here: the server says so under the chip, and the preview has no data.
    await expect(form.getByTestId('query-part-error').first().innerText()).resolves.toContain('lantern.tracing.spans');
    await form.getByTestId('monitor-chart-empty').waitFor();
  });

  it('opens prefilled from a dashboard panel Monitor action: the column map gives the unit', async () => {
    explainFailures();
    // What a panel's Monitor menu item sends (GridPanel): its column map as JSON, keyed by column.
    const q = new URLSearchParams({
      name: 'Queue depth',
      metric: 'queue.depth',
      alias: 'depth',
      query: 'max($depth) | group by queue',
      columns: JSON.stringify({ 'max($depth)': { unit: 'kilobytes', color: '' } }),
    });
    await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors/new-metric?${q}`);
    const form = page.getByTestId('metric-monitor-form');
    await form.getByTestId('monitor-chart').waitFor();
    await expect(form.getByTestId('monitor-column').inputValue()).resolves.toBe('max($depth)');
    await expect(form.getByTestId('monitor-unit').inputValue()).resolves.toBe('kilobytes');
    await expect(form.getByRole('combobox').filter({ hasText: 'kilobytes' }).count()).resolves.toBe(1);
    // The preview's legend is in kilobytes.
    await expect
      .poll(() => form.getByTestId('legend-row').filter({ hasText: 'queue=emails' }).innerText())
      .toMatch(/\t42 KB\t42 KB\t/);
    await screenshot(page, 'monitors-01b-prefilled-unit');
  });

  it('monitors a column in its own unit: milliseconds by default, as suffix of Min / Max, observed min and max', async () => {
    explainFailures();
    // No column map in the address (a Create menu or tracing Monitor menu): the column's own unit.
    const q = new URLSearchParams({
      metric: 'job.duration',
      alias: 'took',
      query: 'max($took) | group by job',
    });
    await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors/new-metric?${q}`);
    const form = new MonitorFormPage(page, 'metric').form;
    await form.getByTestId('monitor-chart').waitFor();
    await expect.poll(() => form.getByTestId('monitor-unit').inputValue()).toBe('milliseconds');
    await expect(form.getByRole('combobox').filter({ hasText: 'milliseconds' }).count()).resolves.toBe(1);
    // Min and Max say their unit and that an empty one is off.
    const minField = form.locator('.MuiFormControl-root', { has: page.getByTestId('monitor-min') });
    const maxField = form.locator('.MuiFormControl-root', { has: page.getByTestId('monitor-max') });
    await expect(minField.innerText()).resolves.toMatch(/Min value[\s\S]*milliseconds[\s\S]*Leave empty to disable/);
    await expect(maxField.innerText()).resolves.toMatch(/Max value[\s\S]*milliseconds[\s\S]*Leave empty to disable/);
    // What the preview saw, in the column's unit with the number the fields take when it scales: the
    // job that took no time is left out of the min.
    await expect
      .poll(() => form.getByTestId('monitor-observed-min').innerText())
      .toBe('Observed min: 250ms (zeroes excluded)');
    await expect(form.getByTestId('monitor-observed-max').innerText()).resolves.toBe('Observed max: 1.5s = 1500');
    await expect
      .poll(() => form.getByTestId('legend-row').filter({ hasText: 'job=export' }).innerText())
      .toMatch(/\t1\.5s\t1\.5s\t/);
    await form.getByTestId('monitor-name-input').fill('Slow export');
    await form.getByTestId('monitor-max').fill('1000');
    await screenshot(page, 'mon-unit-observed');
    await form.getByTestId('monitor-save').click();
    await page.getByTestId('monitor-table').waitFor();
    const saved = await savedMonitor('Slow export');
    expect(saved.params.columnUnit).toBe('milliseconds');
    await monitorApi('DELETE', `/${saved.id}`);
  });

  it("sorts the preview's legend by its headers, max largest first, before paging", async () => {
    explainFailures();
    await sendHostLoad();
    const q = new URLSearchParams({ metric: 'host.load', alias: 'load', query: 'max($load) | group by host' });
    await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors/new-metric?${q}`);
    const form = new MonitorFormPage(page, 'metric').form;
    await form.getByTestId('monitor-chart').waitFor();
    const legend = form.getByTestId('legend-table');
    const hosts = async () =>
      (await legend.getByTestId('legend-name').allInnerTexts()).map((t) => /host=(host-\d+)/.exec(t)?.[1]);
    // 12 series, 9 a page: the first page (the one plotted) starts with the largest max, host-12,
    // wherever the server's order (not by value) put it.
    await expect.poll(() => form.getByTestId('pager-text').innerText()).toBe('1 - 9 of 12');
    await expect
      .poll(hosts)
      .toEqual(['host-12', 'host-11', 'host-10', 'host-09', 'host-08', 'host-07', 'host-06', 'host-05', 'host-04']);
    await expect(legend.getByTestId('legend-row').first().innerText()).resolves.toMatch(/\t112$/);
    await expect(legend.getByTestId('legend-sort-max').getAttribute('aria-sort')).resolves.toBe('descending');
    await screenshot(page, 'leg-max');

    // avg, largest first: host-01 idles highest.
    await legend.getByTestId('legend-sort-avg').getByRole('button').click();
    await expect
      .poll(hosts)
      .toEqual(['host-01', 'host-02', 'host-03', 'host-04', 'host-05', 'host-06', 'host-07', 'host-08', 'host-09']);
    await expect(legend.getByTestId('legend-sort-avg').getAttribute('aria-sort')).resolves.toBe('descending');
    await expect(legend.getByTestId('legend-sort-max').getAttribute('aria-sort')).resolves.toBe(null);
    await screenshot(page, 'leg-avg');
    // Again: smallest first.
    await legend.getByTestId('legend-sort-avg').getByRole('button').click();
    await expect.poll(async () => (await hosts())[0]).toBe('host-12');
    await expect(legend.getByTestId('legend-sort-avg').getAttribute('aria-sort')).resolves.toBe('ascending');
    // By name, A to Z.
    await legend.getByTestId('legend-sort-name').getByRole('button').click();
    await expect.poll(async () => (await hosts()).slice(0, 3)).toEqual(['host-01', 'host-02', 'host-03']);
    // The header texts stay as they were.
    await expect(legend.locator('thead th').allInnerTexts()).resolves.toEqual(['metric', 'avg', 'last', 'min', 'max']);
  });

  it('removing a metric from the picker removes its parts from the query', async () => {
    explainFailures();
    const q = new URLSearchParams([
      ['metric', 'queue.depth'],
      ['alias', 'depth'],
      ['metric', 'job.duration'],
      ['alias', 'took'],
      ['query', 'max($depth) | max($took) | where $took.job = "export"'],
    ]);
    await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors/new-metric?${q}`);
    const form = new MonitorFormPage(page, 'metric').form;
    const chips = form.getByTestId('query-part').locator('.MuiChip-label');
    await expect.poll(() => chips.allInnerTexts()).toEqual(['max($depth)', 'max($took)', 'where $took.job = "export"']);
    await form.getByRole('button', { name: 'Remove job.duration' }).click();
    await expect.poll(() => chips.allInnerTexts()).toEqual(['max($depth)']);
    await form.getByTestId('monitor-chart').waitFor();
    await expect(form.getByTestId('monitor-column').inputValue()).resolves.toBe('max($depth)');
    await screenshot(page, 'mon-remove-metric');
  });

  it('on a laptop screen (1280 and 1100 px wide) no label in the metric monitor form breaks over two lines', async () => {
    explainFailures();
    try {
      for (const width of [1280, 1100]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors/new-metric`);
        const form = new MonitorFormPage(page, 'metric').form;
        await form.getByTestId('metric-search').click();
        await page.getByTestId('metric-option').filter({ hasText: 'queue.depth' }).click();
        await form.getByTestId('add-group-by').click();
        await page.getByRole('menuitem', { name: 'queue', exact: true }).click();
        // The picked gauge's default aggregation, then the group by.
        await expect.poll(() => form.getByTestId('query-part').count()).toBe(2);
        // Every button label is one line: its text boxes sit on one line, not two ("GROUP / BY").
        const wrapped = await form.locator('.MuiButton-root').evaluateAll((buttons) =>
          buttons
            .filter((b) => {
              const walker = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
              for (let t = walker.nextNode(); t; t = walker.nextNode()) {
                const range = document.createRange();
                range.selectNodeContents(t);
                const tops = Array.from(range.getClientRects()).map((r) => Math.round(r.top));
                if (new Set(tops).size > 1) return true;
              }
              return false;
            })
            .map((b) => b.textContent),
        );
        expect(wrapped, `at ${width} px`).toEqual([]);
        await expect(form.getByTestId('add-group-by').innerText()).resolves.toBe('GROUP BY');
        await screenshot(page, `monitors-01c-form-${width}px`);
      }
    } finally {
      await page.setViewportSize({ width: 1440, height: 1000 });
    }
  });

  it('keeps an hours duration on edit, and says why Save waits while the query is on its way', async () => {
    explainFailures();
    const { monitor } = (await monitorApi('POST', '/metric', {
      name: 'Queue stuck for hours',
      notifyEveryoneByEmail: false,
      params: {
        metrics: [{ name: 'queue.depth', alias: 'depth' }],
        query: 'max($depth)',
        column: 'max($depth)',
        forDuration: 3,
        forDurationUnit: 'hours',
        maxValue: 1000,
      },
    })) as { monitor: SavedMonitor };
    // The query's answer is held back: Save cannot know the query's column yet.
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/v1/metrics/1/timeseries**', async (route) => {
      await held;
      await route.continue();
    });
    try {
      await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors/${monitor.id}/metric`);
      const form = new MonitorFormPage(page, 'metric').form;
      await expect(form.getByTestId('monitor-for').innerText()).resolves.toContain('3 hours');
      await form.getByTestId('monitor-save').click();
      // A monitor saved without a unit says "none".
      await expect(
        form
          .getByRole('combobox')
          .filter({ hasText: /^none$/ })
          .count(),
      ).resolves.toBe(1);
      await expect
        .poll(() => form.getByTestId('monitor-save-note').innerText())
        .toBe("Waiting for the query's columns; save again in a moment.");
      await screenshot(page, 'mon-save-waits');
      release();
      await form.getByTestId('monitor-chart').waitFor();
      await form.getByTestId('monitor-save-note').waitFor({ state: 'detached' });
      await form.getByTestId('monitor-for').getByRole('combobox').click();
      await expect(page.getByRole('option').allInnerTexts()).resolves.toEqual([
        '1 hour',
        '3 hours',
        '5 hours',
        '10 hours',
        '15 hours',
      ]);
      await page.getByRole('option', { name: '5 hours', exact: true }).click();
      await screenshot(page, 'mon-hours');
      await form.getByTestId('monitor-save').click();
      await page.getByTestId('monitor-table').waitFor();
      const saved = await savedMonitor('Queue stuck for hours');
      expect(saved.params).toMatchObject({ forDuration: 5, forDurationUnit: 'hours' });
    } finally {
      release();
      await page.unroute('**/api/v1/metrics/1/timeseries**');
      await monitorApi('DELETE', `/${monitor.id}`);
    }
  });

  it("says why Save sends nothing when the query's columns cannot be fetched", async () => {
    explainFailures();
    await page.route('**/api/v1/metrics/1/timeseries**', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'unavailable', message: 'The metrics engine is busy' }),
      }),
    );
    try {
      const q = new URLSearchParams({ name: 'Busy', metric: 'queue.depth', alias: 'depth', query: 'max($depth)' });
      await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors/new-metric?${q}`);
      const form = new MonitorFormPage(page, 'metric').form;
      // The preview says it, and so does Save.
      await expect.poll(() => form.getByTestId('monitor-chart-empty').innerText()).toBe('The metrics engine is busy');
      await form.getByTestId('monitor-max').fill('20');
      await form.getByTestId('monitor-save').click();
      await expect
        .poll(() => form.getByTestId('monitor-save-note').innerText())
        .toBe("The query's columns are unknown: The metrics engine is busy");
      await screenshot(page, 'mon-save-error');
      expect((await monitorsSaved()).map((m) => m.name)).toEqual(['Email queue backlog']);
    } finally {
      await page.unroute('**/api/v1/metrics/1/timeseries**');
    }
  });

  it('shows the not-found page for an unknown monitor or one of the other type', async () => {
    explainFailures();
    await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors/999999/metric`);
    await page.getByTestId('not-found').waitFor();
    await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors/999999/error`);
    await page.getByTestId('not-found').waitFor();
    const { monitor } = (await monitorApi('POST', '/error', { name: 'Any error' })) as { monitor: SavedMonitor };
    try {
      await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors/${monitor.id}/metric`);
      await page.getByTestId('not-found').waitFor();
      await expect(page.getByTestId('metric-monitor-form').count()).resolves.toBe(0);
      // Another project's monitor (the server answers 403) is no monitor of this project either.
      await page.goto(`${server.lantern.baseUrl}/alerting/2/monitors/${monitor.id}/error`);
      await page.getByTestId('not-found').waitFor();
      await expect(page.getByText(/access denied/i).count()).resolves.toBe(0);
      await screenshot(page, 'mon-not-found');
    } finally {
      await monitorApi('DELETE', `/${monitor.id}`);
    }
  });

  it('lets an error monitor have the 20 matchers the server takes, and says so', async () => {
    explainFailures();
    await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors/new-error`);
    const form = new MonitorFormPage(page, 'error').form;
    const rows = form.getByTestId('matcher-row');
    for (let i = 0; i < 20; i++) {
      await rows.nth(i).getByTestId('matcher-attr').fill(`attr.${i}`);
      await rows.nth(i).getByTestId('matcher-value').fill('x');
    }
    // No 21st row: the server would refuse it.
    await expect.poll(() => rows.count()).toBe(20);
    await expect(form.getByRole('button', { name: 'Add a matcher' }).isDisabled()).resolves.toBe(true);
    await expect(form.getByTestId('matchers-limit').innerText()).resolves.toBe('At most 20 matchers are allowed.');
    await screenshot(page, 'mon-matchers-limit');
    await form.getByTestId('monitor-name-input').fill('Twenty conditions');
    await form.getByTestId('monitor-save').click();
    await page.getByTestId('monitor-table').waitFor();
    const saved = await savedMonitor('Twenty conditions');
    await monitorApi('DELETE', `/${saved.id}`);
  });

  it('creates an error monitor with a matcher, then pauses, resumes and deletes it from the list', async () => {
    explainFailures();
    await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors`);
    const list = new MonitorListPage(page);
    await list.create('errors');
    const monitor = new MonitorFormPage(page, 'error');
    const form = monitor.form;
    await form.waitFor();
    await expect(monitor.crumbs()).resolves.toEqual([expect.any(String), 'Monitors', 'New error monitor']);
    // A new error monitor notifies on new and on recurring errors; it has no date range.
    await expect(form.getByTestId('notify-new').locator('input').isChecked()).resolves.toBe(true);
    await expect(form.getByTestId('notify-recurring').locator('input').isChecked()).resolves.toBe(true);
    await expect(monitor.dateRange.count()).resolves.toBe(0);
    await form.getByTestId('monitor-save').click();
    await expect(form.getByText('Field is required').count()).resolves.toBe(1);

    await form.getByTestId('monitor-name-input').fill('Checkout errors');
    await form.getByTestId('matcher-attr').first().fill('service.name');
    await form.getByTestId('matcher-value').first().fill('checkout');
    // A blank row is always there to type into: it cannot be removed while it is the only one.
    const rows = form.getByTestId('matcher-row');
    await expect.poll(() => rows.count()).toBe(2);
    await expect(rows.nth(1).getByTestId('matcher-remove').isDisabled()).resolves.toBe(true);
    await form.getByRole('button', { name: 'Add a matcher' }).click();
    await expect.poll(() => rows.count()).toBe(3);
    await rows.nth(2).getByTestId('matcher-remove').click();
    await expect.poll(() => rows.count()).toBe(2);
    await expect(rows.nth(1).getByTestId('matcher-attr').inputValue()).resolves.toBe('');
    // Removing the filled row leaves the blank one.
    await rows.nth(0).getByTestId('matcher-remove').click();
    await expect.poll(() => rows.count()).toBe(1);
    await expect(rows.nth(0).getByTestId('matcher-attr').inputValue()).resolves.toBe('');
    await form.getByTestId('matcher-attr').first().fill('service.name');
    await form.getByTestId('matcher-value').first().fill('checkout');
    await expect.poll(() => rows.count()).toBe(2);
    await screenshot(page, 'monitors-02-error-form');
    await form.getByTestId('monitor-save').click();
    const row = page.locator('[data-testid="monitor-row"][data-monitor="Checkout errors"]');
    await row.waitFor();
    expect((await monitorsSaved()).find((m) => m.name === 'Checkout errors')).toMatchObject({
      type: 'error',
      state: 'active',
    });

    await row.getByTestId('monitor-pause').click();
    await expect.poll(() => row.getByTestId('monitor-state').innerText()).toBe('paused');
    await row.getByTestId('monitor-resume').click();
    await expect.poll(() => row.getByTestId('monitor-state').innerText()).toBe('active');
    await screenshot(page, 'monitors-03-list');

    // A click on the row (not on its buttons or chips) opens the monitor's edit page.
    await list.clickRow('Checkout errors');
    await page.waitForURL(/\/alerting\/1\/monitors\/[^/]+\/error/);
    await form.waitFor();
    await expect(monitor.crumbs()).resolves.toEqual([expect.any(String), 'Monitors', 'Edit error monitor']);
    await expect(form.getByTestId('monitor-name-input').inputValue()).resolves.toBe('Checkout errors');
    await expect(form.getByTestId('monitor-updated-at').innerText()).resolves.toMatch(
      /^Updated at (\d+ (second|minute)s? ago|None)$/,
    );
    await expect(monitor.state.innerText()).resolves.toBe('active');
    await expect(monitor.toggle.textContent()).resolves.toBe('Pause monitor');
    await monitor.toggle.click();
    await expect.poll(() => monitor.state.innerText()).toBe('paused');
    await expect(monitor.toggle.textContent()).resolves.toBe('Resume monitor');
    await monitor.toggle.click();
    await expect.poll(() => monitor.state.innerText()).toBe('active');
    await expect(monitor.toggle.textContent()).resolves.toBe('Pause monitor');
    // Its date range goes up to 1 day and lives in the address.
    await expect(monitor.periodOptions()).resolves.toEqual([
      'Last 15 minutes',
      'Last 30 minutes',
      'Last 1 hour',
      'Last 3 hours',
      'Last 6 hours',
      'Last 12 hours',
      'Last 24 hours',
    ]);
    await monitor.choosePeriod('6 hours');
    await expect.poll(() => new URL(page.url()).searchParams.get('time_dur')).toBe('21600');
    await screenshot(page, 'monitors-03a-error-edit');
    const editUrl = new URL(page.url());
    await page.reload();
    await expect(monitor.dateRange.getByTestId('period-picker').textContent()).resolves.toBe('6 hours');
    editUrl.searchParams.delete('time_gte');
    editUrl.searchParams.set('time_dur', String(3 * 24 * 3600));
    await page.goto(editUrl.toString());
    await expect.poll(() => new URL(page.url()).searchParams.get('time_dur')).toBe('86400');
    await expect(monitor.dateRange.getByTestId('period-picker').textContent()).resolves.toBe('24 hours');
    await form.getByTestId('monitor-breadcrumb-list').click();
    await row.waitFor();

    await row.getByTestId('monitor-delete').click();
    await expect(page.getByText('Do you really want to delete "Checkout errors" monitor?').count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Yes' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await monitorsSaved()).map((m) => m.name)).toEqual(['Email queue backlog']);
  });

  it('opens the metric monitor by clicking its row: Edit metric monitor with its facts and preview', async () => {
    explainFailures();
    const list = new MonitorListPage(page);
    await list.goto(server.lantern.baseUrl, 1);
    await list.clickRow('Email queue backlog');
    await page.waitForURL(/\/alerting\/1\/monitors\/[^/]+\/metric/);
    const monitor = new MonitorFormPage(page, 'metric');
    const form = monitor.form;
    await expect(monitor.crumbs()).resolves.toEqual([expect.any(String), 'Monitors', 'Edit metric monitor']);
    await expect(form.getByTestId('monitor-last-check').innerText()).resolves.toMatch(/^Last check at /);
    await expect(monitor.toggle.textContent()).resolves.toBe('Pause');
    await expect(form.getByTestId('monitor-view-alerts').textContent()).resolves.toBe('View alerts');
    expect((await monitor.periodOptions()).at(-1)).toBe('Last 30 days');
    await form.getByTestId('monitor-chart').waitFor();
    await expect(form.getByTestId('monitor-column').inputValue()).resolves.toBe('max($depth)');
    await expect.poll(() => form.getByTestId('legend-row').count()).toBe(2);
    await expect(form.getByTestId('monitor-column-hint').count()).resolves.toBe(0);
    await screenshot(page, 'monitors-03b-metric-edit');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await list.table.waitFor();
  });

  it(
    'sees the metric monitor fire: firing in the list, its open alert, the card with its chart',
    { timeout: 240_000 },
    async () => {
      explainFailures();
      // The queue stays backed up while the evaluator (5 s after each minute: FAST_ALERTING_ENV) looks at the last minute.
      const m = createTestMeter('http-proto', {
        httpUrl: server.lantern.baseUrl,
        grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
        dsn: server.dsn,
        serviceName: 'worker',
      });
      m.meter.createObservableGauge('queue.depth').addCallback((r) => {
        r.observe(42, { queue: 'emails' });
        r.observe(3, { queue: 'reports' });
      });
      const keepSending = setInterval(() => void m.flush(), 5000);
      try {
        await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors`);
        const row = page.locator('[data-testid="monitor-row"][data-monitor="Email queue backlog"]');
        await expect
          .poll(
            async () => {
              await page.reload();
              return row.getByTestId('monitor-state').innerText();
            },
            { timeout: 200_000, interval: 5000 },
          )
          .toBe('firing');
        await expect(row.getByTestId('monitor-open-alerts').innerText()).resolves.toBe('1 open');
        await screenshot(page, 'monitors-04-firing');

        await row.getByTestId('monitor-open-alerts').click();
        const list = new AlertListPage(page);
        await list.root.waitFor();
        // Only the emails queue is over its maximum of 20.
        await expect.poll(() => list.names()).toEqual(['Email queue backlog: max($depth){queue=emails}']);
        // The chart's query held back a moment: its place shows it is loading, not a blank card.
        let release = () => {};
        const held = new Promise<void>((r) => (release = r));
        const passed: Promise<void>[] = [];
        const timeseries = '**/api/v1/metrics/1/timeseries**';
        await page.route(timeseries, (route) => {
          const done = held.then(() => route.continue());
          passed.push(done);
          return done;
        });
        const card = await list.open('Email queue backlog: max($depth){queue=emails}');
        await expect(card.root.getByTestId('alert-fact-state').innerText()).resolves.toContain('open');
        await card.root.getByTestId('alert-chart-loading').waitFor();
        release();
        await Promise.all(passed);
        await page.unroute(timeseries);
        await card.root.getByTestId('alert-chart').waitFor();
        await expect(card.root.getByTestId('alert-chart-loading').count()).resolves.toBe(0);
        await expect(card.root.getByTestId('alert-query-chips').innerText()).resolves.toContain(
          'where queue = "emails"',
        );
        await screenshot(page, 'monitors-05-alert-card');

        // 'Explore metric': the alert's series in the metrics explorer, over the card's range.
        await card.root.getByTestId('alert-explore-metric').click();
        await page.waitForURL(/\/metrics\/1\/explore\?/);
        const address = new URL(page.url()).searchParams;
        expect(address.getAll('metric')).toEqual(['queue.depth']);
        expect(address.getAll('alias')).toEqual(['depth']);
        expect(address.get('time_dur')).toBe('3600');
        const explore = new MetricsExplorePage(page);
        await explore.chart.waitFor();
        await expect
          .poll(() => explore.dialog.getByTestId('query-part').allInnerTexts())
          .toEqual(['max($depth)', 'group by queue', 'where queue = "emails"']);
        await screenshot(page, 'monitors-06-alert-explore-metric');
      } finally {
        clearInterval(keepSending);
        await m.shutdown();
      }
    },
  );
});
