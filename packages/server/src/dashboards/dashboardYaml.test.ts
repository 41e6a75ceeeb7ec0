import { describe, expect, it } from 'vitest';
import { parseMetricsQuery } from '@lantern/shared';
import { readdirSync, readFileSync } from 'node:fs';
import { dashboardToYaml, parseDashboardYaml, yamlNestingDepth } from './dashboardYaml';
import { loadTemplates, applicableTemplate } from './templates';
import { specFields } from './dashboards.service';

const doc = `schema: v1
id: acme.queue
name: 'Queue: workers'
table:
  gauges:
    - name: Hosts
      description: Hosts running workers
      metrics: [queue.jobs as $jobs]
      query: [uniq($jobs.host.name) as hosts]
      template: \${hosts} hosts
  metrics:
    - queue.jobs as $jobs
    - queue.latency as $lat
  query:
    - group by host.name
    - per_min($jobs) as jobs_per_min
  columns:
    jobs_per_min: { unit: '', color: red }
grid:
  - name: Processed
    metrics: [queue.jobs as $jobs]
    query: [per_min($jobs) as processed group by status]
    chart: stacked-bar
    legend: { type: table, placement: right, values: [avg, max] }
    styles:
      processed: { color: '#f00', line_width: 3 }
  - name: Latency
    metrics: [queue.latency as $lat]
    query: [p50($lat) as p50]
  - name: Heat
    type: heatmap
    metric: queue.latency
    unit: milliseconds
  - name: Slowest
    type: table
    metrics: [queue.latency as $lat]
    query: [group by queue, p90($lat)]
  - name: Rate by job
    type: promql
    promql: sum by (job) (rate(http_requests_total{job=~"api|web"}[5m]))
    chart: stacked-area
    unit: seconds
`;

describe('dashboard YAML', () => {
  it('parses every section, with defaults and the implicit chart kind', () => {
    const [spec] = parseDashboardYaml(doc);
    expect(spec.table.metrics).toEqual([
      { name: 'queue.jobs', alias: 'jobs' },
      { name: 'queue.latency', alias: 'lat' },
    ]);
    expect(spec.table.query).toBe('group by host.name | per_min($jobs) as jobs_per_min');
    expect(spec.table.gauges[0]).toMatchObject({ dashKind: 'table', template: '${hosts} hosts' });
    expect(spec.grid.map((g) => g.type)).toEqual(['chart', 'chart', 'heatmap', 'table', 'promql']);
    expect(spec.grid[4]).toMatchObject({
      params: {
        query: 'sum by (job) (rate(http_requests_total{job=~"api|web"}[5m]))',
        chartKind: 'stacked-area',
        unit: 'seconds',
      },
    });
    expect(spec.grid[1]).toMatchObject({ params: { chartKind: 'area' } });
    expect(spec.grid[0]).toMatchObject({
      params: {
        chartKind: 'stacked-bar',
        legend: { type: 'table', placement: 'right', values: ['avg', 'max'] },
        timeseriesMap: { processed: { color: '#f00', lineWidth: 3, opacity: 15 } },
      },
    });
  });

  it('round-trips: export, import, export gives the same text', () => {
    const [spec] = parseDashboardYaml(doc);
    const once = dashboardToYaml(spec);
    const [again] = parseDashboardYaml(once);
    expect(again).toEqual(spec);
    expect(dashboardToYaml(again)).toBe(once);
  });

  it('reports one clear error per bad key, with its path', () => {
    const bad = `schema: v2
name: x
size: large
table:
  metrics: [queue.jobs as jobs, nope]
grid:
  - name: a
    type: pie
  - name: b
    metrics: [m as $a]
    query: [p50($a)]
    chart: donut
    legend: { placement: top }
    width: -1
  - name: c
    type: promql
    chart: pie
    metrics: [m as $a]
`;
    expect(() => parseDashboardYaml(bad)).toThrow(
      [
        'size: unknown key (expected one of: schema, id, name, description, tags, variables, table, grid_gauges, grid, monitors)',
        'schema: unsupported template schema: "v2"',
        'table.metrics[0]: alias "jobs" must start with a dollar sign',
        'table.metrics[1]: can\'t parse metric alias "nope"',
        'id: is required',
        'grid[0].type: unsupported grid column type: "pie"',
        'grid[1].width: expected a non-negative integer',
        'grid[1].chart: unsupported chart kind: "donut"',
        'grid[1].legend.placement: expected bottom or right, got "top"',
        'grid[2].metrics: unknown key (expected one of: name, description, width, height, xAxis, yAxis, grid_query_template, type, promql, chart, unit)',
        'grid[2].chart: unsupported chart kind: "pie"',
        'grid[2].promql: is required',
      ].join('; '),
    );
  });

  it('refuses invalid YAML with the parser message', () => {
    expect(() => parseDashboardYaml('schema: v1\n  bad: [')).toThrow(/^invalid YAML: /);
    // The first line of the library's pretty message: where, and a colon where it shows the line (the web app reads it).
    expect(() => parseDashboardYaml('name: a\nname: b')).toThrow(
      /^invalid YAML: Map keys must be unique at line 2, column 1:$/,
    );
    expect(() => parseDashboardYaml('name: x\n---\nname: [')).toThrow(
      /; document 2: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a \] at line 3, column 8:$/,
    );
  });

  it('refuses YAML nested deeper than 64 levels before parsing it; every template nests far less', () => {
    for (const deep of [
      '['.repeat(100_000),
      '{a: '.repeat(65),
      '- '.repeat(65) + 'x',
      'a:\n  - - [[' + '['.repeat(62),
    ]) {
      // This message, not the parser's: refused before the parser ran.
      expect(() => parseDashboardYaml(deep)).toThrow(/^invalid YAML: nested deeper than 64 levels$/);
    }
    expect(yamlNestingDepth('- - ' + '['.repeat(62) + ']'.repeat(62))).toBe(64);
    // Brackets in quoted scalars and comments do not nest.
    expect(
      yamlNestingDepth(`name: "${'['.repeat(100)}"\nx: '${'{'.repeat(100)}' # ${'['.repeat(100)}\ny: [a, {b: c}]`),
    ).toBe(2);
    const templates = readdirSync(new URL('./templates/', import.meta.url)).filter(
      (f) => f.endsWith('.yml') || f.endsWith('.yaml'),
    );
    expect(templates.length).toBeGreaterThan(0);
    for (const f of templates)
      expect(yamlNestingDepth(readFileSync(new URL(`./templates/${f}`, import.meta.url), 'utf8')), f).toBeLessThan(12);
  });

  it('refuses an alias bomb and a size no number can hold, as YAML errors (not a crash)', () => {
    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (const [prev, name] of ['ab', 'bc', 'cd', 'de', 'ef', 'fg'].map((p) => [...p]))
      laughs.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(', ')}]`);
    const bomb = `${laughs.join('\n')}\nname: bomb\ngrid: *g`;
    expect(() => parseDashboardYaml(bomb)).toThrow(/^invalid YAML: .*alias/i);
    expect(() => parseDashboardYaml('name: x\ngrid:\n  - name: c\n    width: 1e308')).toThrow(
      'grid[0].width: expected a non-negative integer',
    );
    expect(() => parseDashboardYaml('a: &a\n  b: *a\nname: x')).toThrow('a: unknown key');
    // A YAML escape makes a NUL the request body did not hold; PostgreSQL cannot store it.
    expect(() => parseDashboardYaml('name: x\ngrid:\n  - name: "a\\0b"')).toThrow(
      'grid.0.name: contains a NUL character (U+0000), which cannot be stored',
    );
  });
});

describe('built-in templates', () => {
  const templates = loadTemplates();
  it('parse, have unique lantern.* ids and valid queries', () => {
    expect(templates.length).toBeGreaterThanOrEqual(10);
    expect(new Set(templates.map((t) => t.id)).size).toBe(templates.length);
    for (const t of templates) {
      expect(t.id).toMatch(/^lantern\./);
      specFields(t); // throws on an invalid table, grid item or gauge
      const queries = [t.table.query, ...t.grid.map((g) => g.params.query), ...t.table.gauges.map((g) => g.query)];
      for (const q of queries) expect(parseMetricsQuery(q).diagnostics).toEqual([]);
    }
  });

  it('cover host, HTTP server/client, Node/Go/JVM runtimes, DB clients and services (from spans)', () => {
    expect(templates.map((t) => t.id).sort()).toEqual([
      'lantern.db.client',
      'lantern.http.client',
      'lantern.http.server',
      'lantern.runtime.go',
      'lantern.runtime.jvm',
      'lantern.runtime.nodejs',
      'lantern.system.disk',
      'lantern.system.filesystem',
      'lantern.system.host',
      'lantern.system.network',
      'lantern.tracing.services',
    ]);
  });

  it('apply only when the table metrics exist, keeping the items whose metrics exist', () => {
    const http = templates.find((t) => t.id === 'lantern.http.server')!;
    expect(applicableTemplate(http, new Set())).toBeNull();
    expect(applicableTemplate(http, new Set(['http.server.request.duration']))?.grid).toHaveLength(3);
    const host = templates.find((t) => t.id === 'lantern.system.host')!;
    const partial = applicableTemplate(host, new Set(['system.cpu.time', 'system.memory.usage']));
    expect(partial?.grid.map((g) => g.name)).toEqual(['CPU time by state', 'Memory by state']);
  });
});
