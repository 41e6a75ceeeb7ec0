import { describe, expect, it } from 'vitest';
import {
  MAX_COLUMN_MAP_ENTRIES,
  MAX_TEXT_LENGTH,
  MAX_TIMESERIES_MAP_ENTRIES,
  MAX_VIEW_JSON_LENGTH,
} from '@lantern/shared';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * Limits on input that the 1 MB body and 16 KB URL limits alone left open: entries of the JSON maps
 * a dashboard stores, and the lengths of query-string texts. Each refusal is a 400 {code, message}
 * naming the field. (The bad-input sweep over every route is badInput.int.test.ts.)
 */
const server = useLantern();

interface Answer {
  status: number;
  body: { code?: string; message?: string } & Record<string, unknown>;
}

async function call(method: string, path: string, body?: unknown, type = 'application/json'): Promise<Answer> {
  const res = await fetch(`${server.lantern.baseUrl}${path}`, {
    method,
    headers: { cookie: server.cookie, ...(body !== undefined ? { 'content-type': type } : {}) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

const entries = <T>(n: number, value: T): Record<string, T> =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`c${i}`, value]));
const metrics = [{ name: 'app.requests', alias: 'req' }];
const chart = (timeseriesMap: unknown, columnMap: unknown = {}) => ({
  type: 'chart',
  name: 'Chart',
  params: { metrics, query: 'per_min($req) as rpm', timeseriesMap, columnMap },
});
const table = (columnMap: unknown) => ({
  type: 'table',
  name: 'Table',
  params: { metrics, query: 'per_min($req) as rpm', columnMap },
});
const gauge = (columnMap: unknown) => ({
  dashKind: 'grid',
  name: 'Gauge',
  description: 'Requests',
  metrics,
  query: 'per_min($req) as rpm',
  columnMap,
});

const refused = (message: string) => ({ status: 400, body: { code: 'invalid_input', message } });

describe('dashboard maps', () => {
  it(`hold at most ${MAX_TIMESERIES_MAP_ENTRIES} series styles and ${MAX_COLUMN_MAP_ENTRIES} columns`, async () => {
    const D = '/api/v1/metrics/1/dashboards';
    const dash = (await call('POST', D, { name: 'Maps' })).body.dashboard as { id: string };
    const style = { color: '#ff0000' };
    const column = { unit: 'ms' };
    const series = `can't have more than ${MAX_TIMESERIES_MAP_ENTRIES} series`;
    const columns = `can't have more than ${MAX_COLUMN_MAP_ENTRIES} columns`;

    const manySeries = entries(MAX_TIMESERIES_MAP_ENTRIES + 1, style);
    expect(await call('POST', `${D}/${dash.id}/grid`, chart(manySeries))).toMatchObject(
      refused(`params.timeseriesMap: ${series}`),
    );
    const manyColumns = entries(MAX_COLUMN_MAP_ENTRIES + 1, column);
    expect(await call('POST', `${D}/${dash.id}/grid`, chart({}, manyColumns))).toMatchObject(
      refused(`params.columnMap: ${columns}`),
    );
    expect(await call('POST', `${D}/${dash.id}/grid`, table(manyColumns))).toMatchObject(
      refused(`params.columnMap: ${columns}`),
    );
    expect(await call('POST', `${D}/${dash.id}/gauges`, gauge(manyColumns))).toMatchObject(
      refused(`columnMap: ${columns}`),
    );
    expect(
      await call('PUT', `${D}/${dash.id}/table`, {
        tableMetrics: metrics,
        tableQuery: '',
        tableColumnMap: manyColumns,
      }),
    ).toMatchObject(refused(`tableColumnMap: ${columns}`));

    // At the limit, stored and read back whole.
    const ok = await call(
      'POST',
      `${D}/${dash.id}/grid`,
      chart(entries(MAX_TIMESERIES_MAP_ENTRIES, style), entries(MAX_COLUMN_MAP_ENTRIES, column)),
    );
    expect(ok.status).toBe(200);
    const params = (ok.body.column as { params: { timeseriesMap: object; columnMap: object } }).params;
    expect(Object.keys(params.timeseriesMap)).toHaveLength(MAX_TIMESERIES_MAP_ENTRIES);
    expect(Object.keys(params.columnMap)).toHaveLength(MAX_COLUMN_MAP_ENTRIES);
    expect((await call('POST', `${D}/${dash.id}/gauges`, gauge(entries(MAX_COLUMN_MAP_ENTRIES, column)))).status).toBe(
      200,
    );

    // A YAML import says the same, with the path of the map.
    const yamlMap = (n: number, indent: string, value: string) =>
      Array.from({ length: n }, (_, i) => `${indent}c${i}: { ${value} }`).join('\n');
    const yaml = [
      'schema: v1',
      'name: Imported',
      'grid:',
      '  - name: Chart',
      '    metrics: [app.requests as $req]',
      '    query: [per_min($req) as rpm]',
      '    styles:',
      yamlMap(MAX_TIMESERIES_MAP_ENTRIES + 1, '      ', 'color: red'),
      '    columns:',
      yamlMap(MAX_COLUMN_MAP_ENTRIES + 1, '      ', 'unit: ms'),
    ].join('\n');
    const imported = await call('POST', `${D}/yaml`, yaml, 'text/yaml');
    expect(imported.status).toBe(400);
    expect(imported.body.code).toBe('invalid_yaml');
    expect(imported.body.message).toContain(`grid[0].styles: ${series}`);
    expect(imported.body.message).toContain(`grid[0].columns: ${columns}`);
  });
});

describe('query-string texts', () => {
  const NOW = Math.floor(Date.now() / 60_000) * 60_000;
  const range = { time_gte: new Date(NOW - 3600_000).toISOString(), time_lt: new Date(NOW).toISOString() };
  const get = (path: string, params: Record<string, string>) =>
    call('GET', `${path}?${new URLSearchParams({ ...range, ...params })}`);

  it(`refuses a metrics query longer than ${MAX_TEXT_LENGTH} characters, as a stored one is`, async () => {
    const long = 'per_min($req) as rpm ' + ' '.repeat(MAX_TEXT_LENGTH - 20);
    for (const kind of ['timeseries', 'table', 'gauge', 'heatmap']) {
      const params = { metric: 'app.requests', alias: 'req', query: long };
      expect(await get(`/api/v1/metrics/1/${kind}`, params)).toMatchObject(
        refused(`query: is longer than ${MAX_TEXT_LENGTH} characters`),
      );
    }
    const atLimit = { metric: 'app.requests', alias: 'req', query: long.slice(1) };
    expect((await get('/api/v1/metrics/1/timeseries', atLimit)).status).toBe(200);
    expect(await get('/api/v1/tracing/1/groups', { query: long })).toMatchObject(
      refused(`query: is longer than ${MAX_TEXT_LENGTH} characters`),
    );
  });

  it('names the length limit of an attribute key rather than calling it missing', async () => {
    // Before, the key's "is required" message stood for every problem, its length too.
    expect(await get('/api/v1/tracing/1/attr-values', { attr_key: 'a'.repeat(501) })).toMatchObject(
      refused('attr_key: is longer than 500 characters'),
    );
    expect(await get('/api/v1/metrics/1/attr-values', { metric: 'm', attr_key: 'a'.repeat(1001) })).toMatchObject(
      refused('attr_key: is longer than 1000 characters'),
    );
    expect(await get('/api/v1/metrics/1/attr-values', { metric: 'a'.repeat(1001), attr_key: 'k' })).toMatchObject(
      refused('metric: is longer than 1000 characters'),
    );
  });

  it('refuses an instrument that does not exist instead of answering no metrics', async () => {
    const message = 'instrument: instrument must be one of gauge, additive, counter, histogram, summary';
    for (const path of ['/api/v1/metrics/1', '/api/v1/metrics/1/stats'])
      expect(await get(path, { instrument: 'bogus' }), path).toMatchObject(refused(message));
    expect((await get('/api/v1/metrics/1/stats', { instrument: 'counter' })).status).toBe(200);
  });
});

describe('saved views', () => {
  it(`keep params and query to ${MAX_VIEW_JSON_LENGTH} characters of JSON each (an address bar's worth)`, async () => {
    // Before, each took up to the 1 MB body, and the list answered up to 100 of them (100 MB).
    const V = '/api/v1/tracing/1/saved-views';
    const view = (query: Record<string, unknown>, params: Record<string, unknown> = {}) => ({
      name: 'Big',
      route: 'SpanList',
      params,
      query,
    });
    const over = { q: 'x'.repeat(MAX_VIEW_JSON_LENGTH) };
    expect(await call('POST', V, view(over))).toMatchObject(
      refused(`query: is longer than ${MAX_VIEW_JSON_LENGTH} characters as JSON`),
    );
    expect(await call('POST', V, view({}, over))).toMatchObject(
      refused(`params: is longer than ${MAX_VIEW_JSON_LENGTH} characters as JSON`),
    );
    const atLimit = { q: 'x'.repeat(MAX_VIEW_JSON_LENGTH - '{"q":""}'.length) };
    const ok = await call('POST', V, view(atLimit, atLimit));
    expect(ok.status).toBe(200);
    expect((ok.body.view as { query: unknown }).query).toEqual(atLimit);
    expect(((await call('GET', V)).body.views as unknown[]).length).toBe(1);
  });
});

describe('URLs the router refuses', () => {
  it('answer {code, message} of their own, not the body of Fastify echoing the path', async () => {
    // Before: {error, code: 'FST_ERR_MAX_PARAM_LENGTH' / 'FST_ERR_BAD_URL', message: "'<the whole path>' ...", statusCode}.
    expect(await call('GET', `/api/v1/metrics/1/dashboards/${'1'.repeat(150)}`)).toEqual({
      status: 414,
      body: { code: 'uri_too_long', message: 'A segment of the URL path is longer than 100 characters.' },
    });
    expect(await call('GET', '/api/v1/projects/%E0%A4%A')).toEqual({
      status: 400,
      body: { code: 'bad_url', message: 'The URL path is not valid (a malformed %-escape).' },
    });
  });
});
