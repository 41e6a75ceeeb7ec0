import { describe, expect, it } from 'vitest';
import { Dashboard, MAX_DASHBOARDS, TableResponse, type GridColumn } from '@lantern/shared';
import { PROJECT1_TOKEN } from '@lantern/testkit/harness';
import { useLantern } from '@lantern/testkit/useLantern';
import { createTestMeter } from '@lantern/testkit/otlpMetrics';
import { parseDocument } from 'yaml';

/** Dashboards API against the real server and SQLite, and template installation from real metrics. */
const server = useLantern({ env: { LANTERN_INGEST_FLUSH_INTERVAL_MS: '50' } });

/** The body parsed (JSON.parse's any: the tests read it field by field with expect()), or null when it is not JSON (YAML). */
function parseJson(text: string) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

async function call(method: string, path: string, body?: unknown, type = 'application/json') {
  const res = await fetch(`${server.lantern.baseUrl}/api/v1/metrics/1/dashboards${path}`, {
    method,
    headers: { cookie: server.cookie, ...(body !== undefined ? { 'content-type': type } : {}) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: parseJson(text), text, headers: res.headers };
}

const chart = (name: string, query = 'per_min($req) as rpm') => ({
  type: 'chart',
  name,
  params: { chartKind: 'line', metrics: [{ name: 'app.requests', alias: 'req' }], query },
});
const gauge = (name: string, dashKind = 'grid') => ({
  dashKind,
  name,
  description: `${name} gauge`,
  metrics: [{ name: 'app.requests', alias: 'req' }],
  query: 'per_min($req) as rpm',
});

describe('dashboards API', () => {
  it('creates, lists (pinned first), shows, renames, pins and deletes', async () => {
    const a = await call('POST', '', { name: 'Zeta' });
    expect(a.status).toBe(200);
    const zeta = Dashboard.parse(a.body.dashboard);
    const alpha = Dashboard.parse((await call('POST', '', { name: 'Alpha' })).body.dashboard);
    expect((await call('POST', '', { name: ' ' })).body).toEqual({
      code: 'invalid_dashboard',
      message: 'dashboard name is required',
    });

    expect((await call('PUT', `/${zeta.id}/pinned`)).status).toBe(200);
    const names = (await call('GET', '')).body.dashboards.map((d: Dashboard) => d.name);
    expect(names.indexOf('Zeta')).toBeLessThan(names.indexOf('Alpha'));

    const shown = await call('GET', `/${alpha.id}`);
    expect(shown.body).toMatchObject({
      dashboard: { name: 'Alpha' },
      grid: [],
      yamlUrl: `${server.lantern.baseUrl}/api/v1/metrics/1/dashboards/${alpha.id}/yaml`,
    });

    const renamed = await call('PUT', `/${alpha.id}`, { name: 'Alpha 2', gridQuery: 'where host = a' });
    expect(renamed.body.dashboard).toMatchObject({ name: 'Alpha 2', gridQuery: 'where host = a' });
    expect((await call('PUT', `/${alpha.id}`, { gridQuery: 'where (' })).status).toBe(400);

    expect((await call('DELETE', `/${alpha.id}`)).body.dashboard.id).toBe(alpha.id);
    expect((await call('GET', `/${alpha.id}`)).status).toBe(404);
    expect((await call('PUT', `/${zeta.id}/unpinned`)).status).toBe(200);
  });

  it('updates the table and derives its grouping', async () => {
    const d = (await call('POST', '', { name: 'Table' })).body.dashboard;
    const res = await call('PUT', `/${d.id}/table`, {
      tableMetrics: [{ name: 'app.requests', alias: 'req' }],
      tableQuery: 'group by service.name | per_min($req) as rpm | group by host.name',
      tableColumnMap: { rpm: { unit: '', color: 'blue' } },
    });
    expect(res.body.dashboard).toMatchObject({
      tableGrouping: ['service.name', 'host.name'],
      tableColumnMap: { rpm: { unit: '', color: 'blue' } },
    });
    const bad = await call('PUT', `/${d.id}/table`, { tableMetrics: [], tableQuery: 'avg(', tableColumnMap: {} });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^dashboard "Table" is invalid: can't parse query: /);
  });

  it('manages grid items: defaults, validation, layout, limits, and type changes refused', async () => {
    const d = (await call('POST', '', { name: 'Grid' })).body.dashboard;
    const c = (await call('POST', `/${d.id}/grid`, chart('Requests'))).body.column as GridColumn;
    expect(c).toMatchObject({ type: 'chart', width: 6, height: 14, params: { columnMap: {}, timeseriesMap: {} } });
    const t = (
      await call('POST', `/${d.id}/grid`, {
        type: 'table',
        name: 'By host',
        params: { metrics: [{ name: 'm', alias: 'm' }], query: '$m | group by host' },
      })
    ).body.column;
    expect(t).toMatchObject({ width: 12, height: 21 });
    const h = (
      await call('POST', `/${d.id}/grid`, { type: 'heatmap', name: 'Heat', params: { metric: 'app.latency' } })
    ).body.column;
    expect(h).toMatchObject({ width: 12, height: 18, params: { metric: 'app.latency', unit: '', query: '' } });
    const p = (
      await call('POST', `/${d.id}/grid`, {
        type: 'promql',
        name: 'Rate',
        params: { query: 'sum by (job) (rate(http_requests_total[5m]))' },
      })
    ).body.column;
    expect(p).toMatchObject({ width: 6, height: 14, params: { chartKind: 'line', unit: '' } });
    expect((await call('DELETE', `/${d.id}/grid/${p.id}`)).status).toBe(200);
    const badPromql = await call('POST', `/${d.id}/grid`, {
      type: 'promql',
      name: 'Bad',
      params: { query: 'sum(rate(x[5m])' },
    });
    expect(badPromql.status).toBe(400);
    expect(badPromql.body.message).toMatch(/^grid column "Bad" is invalid: can't parse PromQL: 1:\d+: parse error: /);

    expect((await call('POST', `/${d.id}/grid`, chart('', '$req'))).body.message).toBe(
      'grid column "" is invalid: grid column name can\'t be empty',
    );
    expect((await call('POST', `/${d.id}/grid`, chart('x', ''))).body.message).toBe(
      'grid column "x" is invalid: query can\'t be empty',
    );
    expect(
      (await call('POST', `/${d.id}/grid`, { ...chart('x'), params: { ...chart('x').params, metrics: [] } })).body
        .message,
    ).toBe('grid column "x" is invalid: at least one metric is required');
    expect((await call('POST', `/${d.id}/grid`, { type: 'pie', name: 'x', params: {} })).status).toBe(400);

    const upd = await call('PUT', `/${d.id}/grid/${c.id}`, chart('Requests per minute'));
    expect(upd.body.column).toMatchObject({ id: c.id, name: 'Requests per minute' });
    expect(
      (await call('PUT', `/${d.id}/grid/${c.id}`, { type: 'heatmap', name: 'x', params: { metric: 'm' } })).body
        .message,
    ).toBe('the type of a grid column cannot change');

    const layout = await call('PUT', `/${d.id}/grid`, [{ id: c.id, width: 4, height: 10, xAxis: 8, yAxis: 2 }]);
    expect(layout.body.grid.find((x: GridColumn) => x.id === c.id)).toMatchObject({
      width: 4,
      height: 10,
      xAxis: 8,
      yAxis: 2,
    });

    expect((await call('DELETE', `/${d.id}/grid/${h.id}`)).body.column.id).toBe(h.id);
    for (let i = 0; i < 18; i++) expect((await call('POST', `/${d.id}/grid`, chart(`c${i}`))).status).toBe(200);
    expect((await call('POST', `/${d.id}/grid`, chart('one too many'))).body.message).toBe(
      "dashboard grid can't have more than 20 columns",
    );
  });

  it('manages gauges: validation, kinds, reorder by index, update and delete', async () => {
    const d = (await call('POST', '', { name: 'Gauges' })).body.dashboard;
    const g1 = (await call('POST', `/${d.id}/gauges`, gauge('one'))).body.gauge;
    const g2 = (await call('POST', `/${d.id}/gauges`, gauge('two'))).body.gauge;
    await call('POST', `/${d.id}/gauges`, gauge('table one', 'table'));
    expect((await call('POST', `/${d.id}/gauges`, { ...gauge(' '), description: '' })).body.message).toBe(
      'gauge " " is invalid: gauge name can\'t be empty',
    );
    // A description is optional (issue 41): left out, it is empty.
    const { description: _omitted, ...undescribed } = gauge('no description');
    const bare = await call('POST', `/${d.id}/gauges`, undescribed);
    expect(bare.body.gauge).toMatchObject({ name: 'no description', description: '' });
    await call('DELETE', `/${d.id}/gauges/${bare.body.gauge.id}`);
    expect(
      (await call('GET', `/${d.id}/gauges?dash_kind=grid`)).body.gauges.map((g: { name: string }) => g.name),
    ).toEqual(['one', 'two']);
    const reordered = await call('PUT', `/${d.id}/gauges`, [
      { id: g1.id, index: 1 },
      { id: g2.id, index: 0 },
    ]);
    expect(reordered.body.gauges.map((g: { name: string }) => g.name)).toEqual(['two', 'one', 'table one']);
    expect(
      (await call('PUT', `/${d.id}/gauges/${g1.id}`, { ...gauge('uno'), template: '${rpm} rpm' })).body.gauge,
    ).toMatchObject({ name: 'uno', template: '${rpm} rpm' });
    expect((await call('DELETE', `/${d.id}/gauges/${g1.id}`)).body.gauge.id).toBe(g1.id);
    expect((await call('DELETE', `/${d.id}/gauges/${g1.id}`)).status).toBe(404);
  });

  it('holds at most 20 gauges (both rows together), through the API and through a YAML import', async () => {
    const d = (await call('POST', '', { name: 'Many gauges' })).body.dashboard;
    for (let i = 0; i < 20; i++)
      expect((await call('POST', `/${d.id}/gauges`, gauge(`g${i}`, i % 2 ? 'table' : 'grid'))).status).toBe(200);
    const before = (await call('GET', `/${d.id}`)).body.dashboard.updatedAt;
    await new Promise((r) => setTimeout(r, 5));
    const refused = await call('POST', `/${d.id}/gauges`, gauge('one too many'));
    expect(refused).toMatchObject({
      status: 400,
      body: { code: 'too_many_gauges', message: "dashboard can't have more than 20 gauges" },
    });
    // A refused gauge leaves the dashboard as it was (not even marked edited).
    expect((await call('GET', `/${d.id}`)).body.dashboard.updatedAt).toBe(before);
    expect((await call('GET', `/${d.id}/gauges`)).body.gauges).toHaveLength(20);
    // So does a refused change of a gauge or of a grid item.
    const [g0] = (await call('GET', `/${d.id}/gauges`)).body.gauges;
    expect((await call('PUT', `/${d.id}/gauges/${g0.id}`, { ...gauge('g0'), name: ' ' })).status).toBe(400);
    const c = (await call('POST', `/${d.id}/grid`, chart('c'))).body.column;
    const edited = (await call('GET', `/${d.id}`)).body.dashboard.updatedAt;
    await new Promise((r) => setTimeout(r, 5));
    expect((await call('PUT', `/${d.id}/grid/${c.id}`, chart('c', 'avg($req'))).status).toBe(400);
    expect((await call('PUT', `/${d.id}/gauges/${g0.id}`, { ...gauge('g0'), name: ' ' })).status).toBe(400);
    expect((await call('GET', `/${d.id}`)).body.dashboard.updatedAt).toBe(edited);
    const order = (await call('GET', `/${d.id}/gauges`)).body.gauges.map((g: { id: string }, i: number) => ({
      id: g.id,
      index: i,
    }));
    expect((await call('PUT', `/${d.id}/gauges`, [...order, order[0]])).status).toBe(400);

    const yaml = (await call('GET', `/${d.id}/yaml`)).text;
    expect((await call('PUT', `/${d.id}/yaml`, yaml, 'text/yaml')).status).toBe(200);
    const more = yaml.replace(
      /^grid_gauges:\n/m,
      'grid_gauges:\n  - name: extra\n    description: extra gauge\n    metrics: [app.requests as $req]\n    query: per_min($req) as rpm\n',
    );
    expect(more).not.toBe(yaml);
    for (const [method, path] of [
      ['PUT', `/${d.id}/yaml`],
      ['POST', '/yaml'],
    ]) {
      expect(await call(method, path, more, 'text/yaml')).toMatchObject({
        status: 400,
        body: { code: 'invalid_yaml', message: "dashboard can't have more than 20 gauges" },
      });
    }
    expect((await call('GET', `/${d.id}/gauges`)).body.gauges).toHaveLength(20);
  });

  it('clones a dashboard with its items and gauges', async () => {
    const d = (await call('POST', '', { name: 'Original' })).body.dashboard;
    await call('POST', `/${d.id}/grid`, chart('A'));
    await call('POST', `/${d.id}/gauges`, gauge('G'));
    const clone = (await call('POST', `/${d.id}`)).body.dashboard;
    expect(clone).toMatchObject({ name: 'Original clone', templateId: '' });
    expect(clone.id).not.toBe(d.id);
    expect((await call('GET', `/${clone.id}`)).body.grid.map((c: GridColumn) => c.name)).toEqual(['A']);
    expect((await call('GET', `/${clone.id}/gauges`)).body.gauges.map((g: { name: string }) => g.name)).toEqual(['G']);

    // A clone of a dashboard with the longest name still has a name the API takes: its own YAML imports back.
    const long = (await call('POST', '', { name: 'n'.repeat(1000) })).body.dashboard;
    const longClone = (await call('POST', `/${long.id}`)).body.dashboard;
    expect(longClone.name).toBe(`${'n'.repeat(994)} clone`);
    const yaml = (await call('GET', `/${longClone.id}/yaml`)).text;
    expect((await call('PUT', `/${longClone.id}/yaml`, yaml, 'text/yaml')).status).toBe(200);
  });

  it('exports YAML and imports it back to the same dashboard (round trip)', async () => {
    const d = (await call('POST', '', { name: 'Round trip' })).body.dashboard;
    await call('PUT', `/${d.id}/table`, {
      tableMetrics: [{ name: 'app.requests', alias: 'req' }],
      tableQuery: 'group by host | per_min($req) as rpm',
      tableColumnMap: { rpm: { unit: '', color: 'red' } },
    });
    await call('POST', `/${d.id}/grid`, {
      ...chart('Requests'),
      params: { ...chart('x').params, legend: { type: 'table', placement: 'right', values: ['max'] } },
    });
    await call('POST', `/${d.id}/grid`, {
      type: 'heatmap',
      name: 'Heat',
      params: { metric: 'app.latency', unit: 'milliseconds', query: 'where host = a' },
    });
    await call('POST', `/${d.id}/gauges`, gauge('Grid gauge'));
    await call('POST', `/${d.id}/gauges`, gauge('Table gauge', 'table'));

    const exported = await call('GET', `/${d.id}/yaml`);
    expect(exported.headers.get('content-type')).toMatch(/^text\/yaml/);
    expect(exported.headers.get('content-disposition')).toBe(`attachment; filename="project_1.dashboard_${d.id}.yaml"`);
    expect(exported.text).toMatch(/^schema: v1\nid: project_1\.dashboard_\d+\nname: Round trip\ntable:/);

    const beforeImport = (await call('GET', `/${d.id}`)).body.dashboard;
    await new Promise((r) => setTimeout(r, 5));
    const imported = await call('PUT', `/${d.id}/yaml`, exported.text, 'text/yaml');
    expect(imported.status).toBe(200);
    expect(imported.body.dashboard).toMatchObject({ id: d.id, name: 'Round trip', tableGrouping: ['host'] });
    // Imported over, the dashboard is still the one created before: same createdAt, a later updatedAt.
    expect((await call('GET', `/${d.id}`)).body.dashboard).toMatchObject({
      createdAt: d.createdAt,
      updatedAt: expect.any(String),
    });
    expect(imported.body.dashboard.createdAt).toBe(d.createdAt);
    expect(imported.body.dashboard.updatedAt > beforeImport.updatedAt).toBe(true);
    expect((await call('GET', `/${d.id}/yaml`)).text).toBe(exported.text);

    const changed = exported.text.replace('name: Round trip', 'name: Renamed by YAML');
    expect((await call('PUT', `/${d.id}/yaml`, changed, 'text/yaml')).body.dashboard.name).toBe('Renamed by YAML');

    const bad = await call(
      'PUT',
      `/${d.id}/yaml`,
      exported.text
        .replace('schema: v1', 'schema: v1\ncolour: red')
        .replace(/metrics:\n {6}- app\.requests as \$req/, 'metrics:\n      - app.requests as req'),
      'text/yaml',
    );
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_yaml');
    expect(bad.body.message).toContain('colour: unknown key');
    expect(bad.body.message).toContain('alias "req" must start with a dollar sign');

    // A YAML file makes a new dashboard with the same table, grid and gauges; one that is not a dashboard changes nothing.
    const before = (await call('GET', '')).body.dashboards.length;
    const created = await call(
      'POST',
      '/yaml',
      exported.text.replace('name: Round trip', 'name: From a file'),
      'text/yaml',
    );
    expect(created.status).toBe(200);
    expect(created.body.dashboard).toMatchObject({ name: 'From a file', tableGrouping: ['host'] });
    expect(created.body.dashboard.id).not.toBe(d.id);
    expect((await call('GET', `/${created.body.dashboard.id}`)).body.grid.map((c: { name: string }) => c.name)).toEqual(
      ['Requests', 'Heat'],
    );
    for (const junk of ['just: a mapping\nof: things', 'not yaml: [', '']) {
      const refused = await call('POST', '/yaml', junk, 'text/yaml');
      expect(refused.status, junk).toBe(400);
      expect(refused.body.code).toBe('invalid_yaml');
    }
    expect((await call('GET', '')).body.dashboards.length).toBe(before + 1);
  });

  it('refuses YAML whose panel query would not run, each error at the path (and so the line) of its query part; nothing changes', async () => {
    // A counter the project has sent: the planner knows it cannot be averaged.
    const dsn = `http://${PROJECT1_TOKEN}@127.0.0.1:${server.lantern.httpPort}/1`;
    const m = createTestMeter('http-proto', { httpUrl: server.lantern.baseUrl, grpcUrl: '', dsn, serviceName: 'shop' });
    m.meter.createCounter('yaml.requests').add(5, { host: 'a' });
    await m.flush();
    await m.shutdown();
    for (let i = 0; i < 100; i++) {
      const list = await fetch(`${server.lantern.baseUrl}/api/v1/metrics/1`, { headers: { cookie: server.cookie } });
      if (((await list.json()) as { metrics: { name: string }[] }).metrics.some((x) => x.name === 'yaml.requests'))
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const d = (await call('POST', '', { name: 'Checked' })).body.dashboard;
    const good = [
      'schema: v1',
      'id: checked',
      'name: Checked',
      'grid:',
      '  - name: Sum',
      '    type: chart',
      '    metrics:',
      '      - yaml.requests as $req',
      '    query:',
      '      - sum($req)',
      '      - group by host',
      '  - name: Average',
      '    type: chart',
      '    metrics:',
      '      - yaml.requests as $req',
      '    query:',
      '      - group by host',
      '      - avg($req)',
      '  - name: Not yet sent',
      '    type: table',
      '    metrics:',
      '      - yaml.later as $later',
      '    query:',
      '      - avg($later)',
      '',
    ].join('\n');
    const before = (await call('GET', `/${d.id}/yaml`)).text;
    const refused = await call('PUT', `/${d.id}/yaml`, good, 'text/yaml');
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      code: 'invalid_yaml',
      message: 'grid[1].query[1]: panel "Average": avg($req): counter instrument does not support avg',
    });
    // The path is the query part's node: line 18 of the text, `      - avg($req)`.
    const node = parseDocument(good).getIn(['grid', 1, 'query', 1], true) as { range: [number, number, number] };
    expect(good.slice(0, node.range[0]).split('\n').length).toBe(18);
    expect(good.split('\n')[17]).toBe('      - avg($req)');
    expect((await call('GET', `/${d.id}/yaml`)).text).toBe(before);
    // A file import is refused the same way; a query that does not parse is named at its part too.
    const unparsable = good.replace('      - sum($req)', '      - sum($req) +');
    const fromFile = await call('POST', '/yaml', unparsable, 'text/yaml');
    expect(fromFile.status).toBe(400);
    expect(fromFile.body.message).toMatch(
      /^grid\[0\]\.query\[0\]: panel "Sum": sum\(\$req\) \+: .+; grid\[1\]\.query\[1\]: /,
    );

    // Fixed, it saves; a metric the project has not sent yet (avg may suit it) does not block the save.
    const fixed = await call(
      'PUT',
      `/${d.id}/yaml`,
      good.replace('      - avg($req)', '      - sum($req)'),
      'text/yaml',
    );
    expect(fixed.status).toBe(200);
    expect((await call('GET', `/${d.id}`)).body.grid.map((c: GridColumn) => c.name)).toEqual([
      'Sum',
      'Average',
      'Not yet sent',
    ]);
  });

  it('imports the YAML of another dashboard or template: adopts its id unless it has a template id of its own (reference §4.8)', async () => {
    const source = (await call('POST', '', { name: 'Source' })).body.dashboard;
    await call('POST', `/${source.id}/grid`, chart('Requests'));
    const sourceYaml = (await call('GET', `/${source.id}/yaml`)).text;
    const target = (await call('POST', '', { name: 'Target' })).body.dashboard;
    const yamlOf = async (id: string) => (await call('GET', `/${id}/yaml`)).text;

    // Another dashboard's YAML (its export id names that dashboard): taken, and the target still exports as itself.
    const pasted = await call('PUT', `/${target.id}/yaml`, sourceYaml, 'text/yaml');
    expect(pasted.status).toBe(200);
    expect(pasted.body.dashboard).toMatchObject({ id: target.id, name: 'Source', templateId: '' });
    expect((await call('GET', `/${target.id}`)).body.grid.map((c: GridColumn) => c.name)).toEqual(['Requests']);
    expect(await yamlOf(target.id)).toMatch(new RegExp(`^schema: v1\nid: project_1\\.dashboard_${target.id}\n`));

    // A template's YAML: the dashboard adopts its id, exports under it and refuses a YAML of another id from then on.
    const templateYaml = sourceYaml.replace(/id: project_1\.dashboard_\d+/, 'id: team.checkout');
    const adopted = await call('PUT', `/${target.id}/yaml`, templateYaml, 'text/yaml');
    expect(adopted.status).toBe(200);
    expect(adopted.body.dashboard).toMatchObject({ id: target.id, templateId: 'team.checkout' });
    expect(await yamlOf(target.id)).toMatch(/^schema: v1\nid: team\.checkout\n/);
    expect(
      (await call('PUT', `/${target.id}/yaml`, templateYaml.replace('name: Source', 'name: Again'), 'text/yaml'))
        .status,
    ).toBe(200);
    for (const other of [sourceYaml, templateYaml.replace('id: team.checkout', 'id: someone.else')]) {
      const refused = await call('PUT', `/${target.id}/yaml`, other, 'text/yaml');
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        code: 'invalid_yaml',
        message: `template id does not match: got "${other === sourceYaml ? `project_1.dashboard_${source.id}` : 'someone.else'}", has "team.checkout"`,
      });
    }

    // A template id names one dashboard of a project: a second one cannot adopt it.
    const taken = await call('PUT', `/${source.id}/yaml`, templateYaml, 'text/yaml');
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({
      code: 'invalid_yaml',
      message: `template id "team.checkout" is already dashboard "Again"'s (id ${target.id}); a template id names one dashboard of a project`,
    });
    expect((await call('GET', `/${source.id}`)).body.dashboard).toMatchObject({ name: 'Source', templateId: '' });
  });

  it('takes YAML imports of one dashboard from several clients at once: each whole, none failing (PostgreSQL too)', async () => {
    const d = (await call('POST', '', { name: 'Busy' })).body.dashboard;
    await call('POST', `/${d.id}/grid`, chart('Requests'));
    await call('POST', `/${d.id}/gauges`, gauge('Gauge'));
    const exported = (await call('GET', `/${d.id}/yaml`)).text;
    const created = (await call('GET', `/${d.id}`)).body.dashboard.createdAt;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call('PUT', `/${d.id}/yaml`, exported.replace('name: Busy', `name: Busy ${i}`), 'text/yaml'),
      ),
    );
    // Before, on PostgreSQL a save deleted the dashboard's row and inserted it again: a concurrent
    // one missed the new row (500: duplicate key) or deadlocked over the items.
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    const shown = (await call('GET', `/${d.id}`)).body;
    expect(shown.dashboard.name).toMatch(/^Busy \d$/);
    expect(shown.dashboard.createdAt).toBe(created);
    expect(shown.grid.map((c: GridColumn) => c.name)).toEqual(['Requests']);
    expect((await call('GET', `/${d.id}/gauges`)).body.gauges).toHaveLength(1);
  });

  it('holds the grid item and gauge caps under concurrent adds (PostgreSQL too)', async () => {
    const d = (await call('POST', '', { name: 'Burst' })).body.dashboard;
    // Before, each add counted the items and then inserted: a burst of adds all counted fewer
    // than 20 and overshot the cap.
    const grid = await Promise.all(Array.from({ length: 30 }, (_, i) => call('POST', `/${d.id}/grid`, chart(`c${i}`))));
    const gauges = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call('POST', `/${d.id}/gauges`, gauge(`g${i}`, i % 2 ? 'table' : 'grid'))),
    );
    for (const [answers, code] of [
      [grid, 'too_many_grid_columns'],
      [gauges, 'too_many_gauges'],
    ] as const) {
      expect(answers.filter((a) => a.status === 200)).toHaveLength(20);
      expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body.code])).toEqual(
        Array(10).fill([400, code]),
      );
    }
    expect((await call('GET', `/${d.id}`)).body.grid).toHaveLength(20);
    expect((await call('GET', `/${d.id}/gauges`)).body.gauges).toHaveLength(20);
  });

  it('keeps dashboards to their project', async () => {
    const d = (await call('POST', '', { name: 'Mine' })).body.dashboard;
    const res = await fetch(`${server.lantern.baseUrl}/api/v1/metrics/2/dashboards/${d.id}`, {
      headers: { cookie: server.cookie },
    });
    // Another project's dashboard is 403, as monitors, alerts and channels are (reference §5.6).
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ code: 'forbidden', message: 'access denied' });
    expect((await fetch(`${server.lantern.baseUrl}/api/v1/metrics/1/dashboards`)).status).toBe(401);
  });
});

describe('dashboard variables (issue 41)', () => {
  const service = { name: 'service', kind: 'attribute', metric: 'app.queue', attr: 'service.name', includeAll: true };
  const group = { name: 'group', label: 'Group by', kind: 'list', values: ['host.name', 'service.name'] };

  it('stores variables, refuses bad ones, checks panels against them and keeps them in YAML', async () => {
    const d = (await call('POST', '', { name: 'Vars' })).body.dashboard;
    expect(d.variables).toEqual([]);
    // A panel naming $group in its grouping is refused while the dashboard has no such variable.
    const panel = chart('By group', 'last($req) as q | where service.name in ($service) | group by $group');
    expect((await call('POST', `/${d.id}/grid`, panel)).body.message).toMatch(/expected \$alias\.attribute/);

    const saved = await call('PUT', `/${d.id}`, { variables: [service, group] });
    expect(saved.status).toBe(200);
    expect(saved.body.dashboard.variables).toEqual([
      { ...service, label: '', values: [], multi: false, query: '' },
      { ...group, metric: '', attr: '', multi: false, includeAll: false, query: '' },
    ]);
    expect((await call('POST', `/${d.id}/grid`, panel)).status).toBe(200);

    for (const [bad, message] of [
      [[service, service], 'variable "service" is defined twice'],
      [[{ ...group, values: [] }], 'variable "group" needs at least one value'],
      [[{ ...service, attr: '' }], 'variable "service" needs a metric and an attribute'],
    ] as const)
      expect((await call('PUT', `/${d.id}`, { variables: bad })).body).toEqual({
        code: 'invalid_dashboard',
        message: `dashboard "Vars" is invalid: ${message}`,
      });
    const badName = await call('PUT', `/${d.id}`, { variables: [{ ...group, name: '1st' }] });
    expect(badName.status).toBe(400);
    expect(badName.body.message).toMatch(/variables\.0\.name.*letters, digits and _/);

    // YAML: written, read back, and its problems at their path.
    const yaml = (await call('GET', `/${d.id}/yaml`)).text;
    expect(yaml).toContain(
      'variables:\n  - name: service\n    metric: app.queue\n    attribute: service.name\n    all: true\n  - name: group\n    label: Group by\n    values:\n      - host.name\n      - service.name\n',
    );
    const copy = await call('POST', '/yaml', yaml.replace('name: Vars', 'name: Vars copy'), 'text/yaml');
    expect(copy.status).toBe(200);
    expect(copy.body.dashboard.variables).toEqual(saved.body.dashboard.variables);
    const broken = await call(
      'PUT',
      `/${d.id}/yaml`,
      yaml.replace('    all: true\n', '    all: true\n    colour: red\n'),
      'text/yaml',
    );
    expect(broken.body.message).toContain('variables[0].colour: unknown key');
    const noValues = await call(
      'PUT',
      `/${d.id}/yaml`,
      yaml.replace(/ {4}values:\n(.*\n){2}/, '    values: []\n'),
      'text/yaml',
    );
    expect(noValues.body.message).toContain('variable "group" needs at least one value');
  });

  it('checks a PromQL panel with its variables in place: $group in a by list parses once the dashboard has it', async () => {
    const d = (await call('POST', '', { name: 'PromQL vars' })).body.dashboard;
    const panel = {
      type: 'promql',
      name: 'By group',
      params: { query: 'sum by ($group) (rate(http_requests_total{service=~"$service"}[5m]))' },
    };
    const refused = await call('POST', `/${d.id}/grid`, panel);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/can't parse PromQL/);
    await call('PUT', `/${d.id}`, { variables: [service, group] });
    const added = await call('POST', `/${d.id}/grid`, panel);
    expect(added.status).toBe(200);
    expect(added.body.column.params.query).toBe(panel.params.query);
  });

  it('runs panel queries with the picked values: one, several, All, and a grouping', async () => {
    const dsn = `http://${PROJECT1_TOKEN}@127.0.0.1:${server.lantern.httpPort}/1`;
    for (const [name, host, value] of [
      ['checkout', 'h1', 3],
      ['cart', 'h2', 5],
      ['pay', 'h2', 7],
    ] as const) {
      const m = createTestMeter('http-proto', { httpUrl: server.lantern.baseUrl, grpcUrl: '', dsn, serviceName: name });
      m.meter.createGauge('app.queue').record(value, { 'host.name': host });
      await m.flush();
      await m.shutdown();
    }
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const range = `time_gte=${new Date(minute - 3600_000).toISOString()}&time_lt=${new Date(minute + 120_000).toISOString()}`;
    const table = async (vars: string[], query = 'last($q) as q | where service.name = $service | group by $group') => {
      const qs = new URLSearchParams({ metric: 'app.queue', alias: 'q', query });
      for (const v of vars) qs.append('var', v);
      const res = await fetch(`${server.lantern.baseUrl}/api/v1/metrics/1/table?${qs}&${range}`, {
        headers: { cookie: server.cookie },
      });
      const body = TableResponse.parse(await res.json());
      return body.items.map((r) => `${String(r['service.name'] ?? r['host.name'])}=${String(r.q)}`).sort();
    };
    const all = ['service=$__all', 'group=service.name'];
    for (let i = 0; (await table(all)).length < 3; i++) {
      if (i > 150) throw new Error('app.queue never answered 3 services');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await table(all)).toEqual(['cart=5', 'checkout=3', 'pay=7']);
    expect(await table(['service=checkout', 'group=service.name'])).toEqual(['checkout=3']);
    expect(await table(['service=checkout', 'service=pay', 'group=service.name'])).toEqual(['checkout=3', 'pay=7']);
    // Grouped by host (the list variable): the service filter decides which of h2's series count.
    expect(await table(['service=cart', 'group=host.name'])).toEqual(['h2=5']);
    expect(await table(['service=checkout', 'service=cart', 'group=host.name'])).toEqual(['h1=3', 'h2=5']);
    // A panel query built from the substituted text (a monitor made from the panel) answers the same.
    expect(await table([], 'last($q) as q | where service.name in (checkout, pay) | group by service.name')).toEqual([
      'checkout=3',
      'pay=7',
    ]);
  });
});

describe('dependent dashboard variables (issue 41)', () => {
  const host = { name: 'host', kind: 'attribute', metric: 'app.pool', attr: 'host.name', includeAll: true };
  const svc = { name: 'svc', kind: 'attribute', metric: 'app.pool', attr: 'service.name', multi: true };

  it("offers a variable's values filtered by the picks before it, and refuses a filter naming a later one", async () => {
    const dsn = `http://${PROJECT1_TOKEN}@127.0.0.1:${server.lantern.httpPort}/1`;
    for (const [name, h] of [
      ['checkout', 'h1'],
      ['cart', 'h2'],
      ['pay', 'h2'],
      ['search', 'h3'],
    ] as const) {
      const m = createTestMeter('http-proto', { httpUrl: server.lantern.baseUrl, grpcUrl: '', dsn, serviceName: name });
      m.meter.createGauge('app.pool').record(1, { 'host.name': h });
      await m.flush();
      await m.shutdown();
    }
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const values = async (query: string, vars: string[]) => {
      const qs = new URLSearchParams({
        metric: 'app.pool',
        attr_key: 'service.name',
        query,
        time_gte: new Date(minute - 3600_000).toISOString(),
        time_lt: new Date(minute + 120_000).toISOString(),
      });
      for (const v of vars) qs.append('var', v);
      const res = await fetch(`${server.lantern.baseUrl}/api/v1/metrics/1/attr-values?${qs}`, {
        headers: { cookie: server.cookie },
      });
      const body = (await res.json()) as { items: { value: string }[] } | { code: string; message: string };
      return 'items' in body ? body.items.map((i) => i.value) : body;
    };
    const filter = 'where host.name = $host';
    for (let i = 0; ; i++) {
      const all = await values(filter, ['host=$__all']);
      if (Array.isArray(all) && all.length === 4) break;
      if (i > 150) throw new Error('app.pool never answered 4 services');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await values(filter, ['host=h2'])).toEqual(['cart', 'pay']);
    expect(await values(filter, ['host=h1', 'host=h3'])).toEqual(['checkout', 'search']);
    expect(await values(filter, ['host=$__all'])).toEqual(['cart', 'checkout', 'pay', 'search']);
    expect(await values('group by host.name', [])).toEqual({
      code: 'invalid_query',
      message: 'group by host.name: a values filter takes where parts only',
    });

    const d = (await call('POST', '', { name: 'Chained' })).body.dashboard;
    const chained = [host, { ...svc, query: filter }];
    const saved = await call('PUT', `/${d.id}`, { variables: chained });
    expect(saved.body.dashboard.variables.map((v: { query: string }) => v.query)).toEqual(['', filter]);
    for (const [bad, message] of [
      [[{ ...svc, query: filter }, host], 'variable "svc" filters by $host, which is not defined before it'],
      [
        [{ ...host, query: 'where host.name = $host' }],
        'variable "host" filters by $host, which is not defined before it',
      ],
      [
        [host, { ...svc, query: 'group by host.name' }],
        'variable "svc" has a filter that is not a where part: group by host.name',
      ],
      [
        [host, { name: 'env', kind: 'list', values: ['a'], query: filter }],
        'variable "env" is a fixed list: only an attribute\'s values take a filter',
      ],
    ] as const)
      expect((await call('PUT', `/${d.id}`, { variables: bad })).body).toEqual({
        code: 'invalid_dashboard',
        message: `dashboard "Chained" is invalid: ${message}`,
      });

    const yaml = (await call('GET', `/${d.id}/yaml`)).text;
    expect(yaml).toContain('    attribute: service.name\n    query: where host.name = $host\n    multi: true\n');
    const copy = await call('POST', '/yaml', yaml.replace('name: Chained', 'name: Chained copy'), 'text/yaml');
    expect(copy.body.dashboard.variables).toEqual(saved.body.dashboard.variables);
  });
});

describe('gauge look: text, stat or dial with thresholds (issue 41)', () => {
  it('stores the look, refuses bad thresholds and an empty dial range, and keeps it in clones and YAML', async () => {
    const d = (await call('POST', '', { name: 'Looks' })).body.dashboard;
    const thresholds = [
      { value: 80, color: '#F57C00' },
      { value: 95, color: 'red' },
    ];
    const dial = { ...gauge('CPU'), display: 'dial', min: 0, max: 120, thresholds };
    const added = await call('POST', `/${d.id}/gauges`, dial);
    expect(added.body.gauge).toMatchObject({ display: 'dial', min: 0, max: 120, thresholds });
    // An older gauge (no look given) reads as text with no thresholds.
    const plain = (await call('POST', `/${d.id}/gauges`, gauge('Plain'))).body.gauge;
    expect(plain).toMatchObject({ display: 'text', thresholds: [], min: 0, max: 100 });

    for (const [bad, message] of [
      [{ thresholds: [thresholds[1], thresholds[0]] }, /thresholds must go up/],
      [{ thresholds: [{ value: 1, color: 'not a colour!' }] }, /expected a colour/],
      [{ display: 'pie' }, /display/],
      [{ min: 100, max: 100 }, /a dial's min \(100\) must be below its max \(100\)/],
    ] as const) {
      const res = await call('PUT', `/${d.id}/gauges/${plain.id}`, { ...gauge('Plain'), ...bad });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    const stat = await call('PUT', `/${d.id}/gauges/${plain.id}`, { ...gauge('Plain'), display: 'stat', thresholds });
    expect((await call('GET', `/${d.id}/gauges`)).body.gauges).toMatchObject([
      { name: 'CPU', display: 'dial', max: 120, thresholds },
      { name: 'Plain', display: 'stat', max: 100, thresholds },
    ]);
    expect(stat.status).toBe(200);

    const clone = (await call('POST', `/${d.id}`)).body.dashboard;
    expect((await call('GET', `/${clone.id}/gauges`)).body.gauges).toMatchObject([
      { name: 'CPU', display: 'dial', max: 120, thresholds },
      { name: 'Plain', display: 'stat', thresholds },
    ]);

    const yaml = (await call('GET', `/${d.id}/yaml`)).text;
    expect(yaml).toContain(
      '    display: dial\n    max: 120\n    thresholds:\n      - value: 80\n        color: "#F57C00"\n      - value: 95\n        color: red\n',
    );
    const copy = await call('POST', '/yaml', yaml.replace('name: Looks', 'name: Looks copy'), 'text/yaml');
    expect(copy.status).toBe(200);
    expect((await call('GET', `/${copy.body.dashboard.id}/gauges`)).body.gauges).toMatchObject([
      { name: 'CPU', display: 'dial', min: 0, max: 120, thresholds },
      { name: 'Plain', display: 'stat', min: 0, max: 100, thresholds },
    ]);
    const broken = await call(
      'PUT',
      `/${d.id}/yaml`,
      yaml.replace('        color: red\n', '        color: 12\n').replace('display: dial', 'display: pie'),
      'text/yaml',
    );
    expect(broken.status).toBe(400);
    expect(broken.body.message).toContain('grid_gauges[0].display:');
    expect(broken.body.message).toContain('grid_gauges[0].thresholds[1].color: Invalid input: expected string');
  });
});

describe('dashboard tags and the template gallery (issue 41)', () => {
  it('keeps tags (refusing bad ones, in YAML and clones), lists the templates with a description and makes a dashboard from one', async () => {
    const d = (await call('POST', '', { name: 'Tagged' })).body.dashboard;
    expect(d.tags).toEqual([]);
    expect((await call('PUT', `/${d.id}`, { tags: ['shop', 'prod'] })).body.dashboard.tags).toEqual(['shop', 'prod']);
    for (const [tags, message] of [
      [['a', 'a'], 'a tag is there twice'],
      [[' '], "a tag can't be empty"],
      [Array.from({ length: 11 }, (_v, i) => `t${i}`), 'a dashboard has at most 10 tags'],
    ] as const) {
      const res = await call('PUT', `/${d.id}`, { tags });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(message);
    }
    const yaml = (await call('GET', `/${d.id}/yaml`)).text;
    expect(yaml).toContain('name: Tagged\ntags:\n  - shop\n  - prod\n');
    expect((await call('POST', '/yaml', yaml, 'text/yaml')).body.dashboard.tags).toEqual(['shop', 'prod']);
    expect((await call('POST', `/${d.id}`)).body.dashboard.tags).toEqual(['shop', 'prod']);
    const twice = await call('PUT', `/${d.id}/yaml`, yaml.replace('  - prod\n', '  - shop\n'), 'text/yaml');
    expect(twice.body).toEqual({ code: 'invalid_yaml', message: 'tags: a tag is there twice' });

    const templates = (await call('GET', '/templates')).body.templates as {
      id: string;
      name: string;
      description: string;
    }[];
    expect(templates.length).toBeGreaterThanOrEqual(10);
    for (const t of templates) expect(t.description, t.id).toMatch(/^\S.{20,}$/);
    expect(templates.find((t) => t.id === 'lantern.http.server')).toMatchObject({
      name: 'HTTP: server',
      tags: ['http', 'opentelemetry'],
    });
    // From the gallery: every panel of the template, though the project sends none of its metrics.
    const made = await call('POST', '/templates/lantern.runtime.jvm');
    expect(made.body.dashboard).toMatchObject({ name: 'JVM: runtime', templateId: '', tags: ['runtime', 'jvm'] });
    const shown = (await call('GET', `/${made.body.dashboard.id}`)).body;
    expect(shown.grid.map((c: GridColumn) => c.name)).toEqual(['Memory used by pool', 'GC time', 'Threads']);
    expect((await call('POST', '/templates/nope')).body).toEqual({
      code: 'template_not_found',
      message: 'template "nope" not found',
    });
  });
});

describe('dashboard templates', () => {
  async function waitFor<T>(f: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
    const until = Date.now() + ms;
    for (;;) {
      const v = await f();
      if (v !== undefined) return v;
      if (Date.now() > until) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const byTemplate = async (id: string) =>
    ((await call('GET', '')).body.dashboards as Dashboard[]).find((d) => d.templateId === id);

  it('installs a template when its metrics appear, and never overwrites a user edit', async () => {
    const dsn = `http://${PROJECT1_TOKEN}@127.0.0.1:${server.lantern.httpPort}/1`;
    const m = createTestMeter('http-proto', { httpUrl: server.lantern.baseUrl, grpcUrl: '', dsn, serviceName: 'shop' });
    m.meter.createHistogram('http.server.request.duration', { unit: 's' }).record(0.2, { 'http.route': '/cart' });
    await m.flush();
    await m.shutdown();

    const dash = await waitFor(() => byTemplate('lantern.http.server'));
    expect(dash.name).toBe('HTTP: server');
    const shown = (await call('GET', `/${dash.id}`)).body;
    expect(shown.grid.map((c: GridColumn) => c.type)).toEqual(['chart', 'chart', 'heatmap']);
    expect(await byTemplate('lantern.http.client')).toBeUndefined();

    // The user renames it; new metrics later trigger another sync, which must leave it alone.
    await call('PUT', `/${dash.id}`, { name: 'Our HTTP' });
    const m2 = createTestMeter('http-proto', {
      httpUrl: server.lantern.baseUrl,
      grpcUrl: '',
      dsn,
      serviceName: 'shop',
    });
    m2.meter.createHistogram('http.client.request.duration', { unit: 's' }).record(0.1, { 'server.address': 'pay' });
    await m2.flush();
    await m2.shutdown();
    await waitFor(() => byTemplate('lantern.http.client'));
    const again = (await call('GET', `/${dash.id}`)).body;
    expect(again.dashboard.name).toBe('Our HTTP');
    expect(again.grid.map((c: GridColumn) => c.id)).toEqual(shown.grid.map((c: GridColumn) => c.id));

    // The user deletes the client dashboard; the sync that the DB metrics set off installs the DB
    // template and must not bring the deleted one back.
    const client = (await byTemplate('lantern.http.client'))!;
    expect((await call('DELETE', `/${client.id}`)).status).toBe(200);
    const m3 = createTestMeter('http-proto', {
      httpUrl: server.lantern.baseUrl,
      grpcUrl: '',
      dsn,
      serviceName: 'shop',
    });
    m3.meter.createHistogram('db.client.operation.duration', { unit: 's' }).record(0.01, { 'db.system': 'postgresql' });
    await m3.flush();
    await m3.shutdown();
    await waitFor(() => byTemplate('lantern.db.client'));
    expect(await byTemplate('lantern.http.client')).toBeUndefined();
  });
});

describe('dashboards per project', () => {
  it(`holds the cap of ${MAX_DASHBOARDS} dashboards under concurrent creates, clones and YAML imports (PostgreSQL too)`, async () => {
    const source = (await call('POST', '', { name: 'Source' })).body.dashboard;
    const yaml = (await call('GET', `/${source.id}/yaml`)).text.replace('name: Source', 'name: Copy');
    const have = (await call('GET', '')).body.dashboards.length;
    const made: string[] = [];
    // Up to 10 below the cap, 50 at a time.
    for (let left = MAX_DASHBOARDS - 10 - have; left > 0; left -= 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, left) }, (_, i) => call('POST', '', { name: `Filler ${left}-${i}` })),
      );
      for (const a of batch) made.push(a.body.dashboard.id);
    }
    // Before, nothing counted: every create succeeded. A burst of creates, clones and imports
    // together must stop at the cap exactly: counting, then inserting, would overshoot it.
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 3 === 0
          ? call('POST', '', { name: `Burst ${i}` })
          : i % 3 === 1
            ? call('POST', `/${source.id}`)
            : call('POST', '/yaml', yaml, 'text/yaml'),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(20);
    for (const a of refused)
      expect([a.status, a.body]).toEqual([
        400,
        { code: 'too_many_dashboards', message: `a project can't have more than ${MAX_DASHBOARDS} dashboards` },
      ]);
    expect((await call('GET', '')).body.dashboards).toHaveLength(MAX_DASHBOARDS);

    // Deleting one makes room for one.
    expect((await call('DELETE', `/${made[0]}`)).status).toBe(200);
    expect((await call('POST', '', { name: 'Room' })).status).toBe(200);
    expect((await call('POST', '', { name: 'No room' })).status).toBe(400);
  });
});
