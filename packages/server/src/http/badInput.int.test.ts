import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import {
  API_ROUTES,
  apiRoutes,
  MAX_BODY_DEPTH,
  MAX_DASHBOARDS,
  MAX_SAVED_VIEWS,
  PROMETHEUS_PREFIX,
  type AnyRouteContract,
} from '@lantern/shared';
import { PROJECT1_TOKEN, removeDataDir, signIn, tempDataDir } from '@lantern/testkit/harness';
import { testDbUrl } from '@lantern/testkit/postgres';
import { composeLantern, type Lantern } from '../app/compose';
import { loadConfig } from '../config';

/**
 * A bad-input sweep over every route of API_ROUTES, derived from the contracts: path params that are
 * not ids, query params of the wrong type or absurd values, bodies that are not JSON, JSON of the
 * wrong type, fields of the wrong type, deep nesting, 1 MB strings, NUL and lone surrogates, and query
 * language garbage. Every answer must be a 2xx (the input was valid or ignored) or a 4xx with a
 * `{code, message}` body; never a 5xx, never a dropped connection; afterwards the server still
 * answers, and every stored object still reads back inside its contract (answers are checked).
 * The OTLP, Zipkin and Vector ingest paths have their own fuzzing (ingest/fuzz.int.test.ts); the
 * two ingest routes it does not send to (Prometheus remote write, the second Vector path) are here.
 */

let lantern: Lantern;
let base: string;
let cookie: string;
let dataDir: string;

const NOW = Math.floor(Date.now() / 60_000) * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const RANGE = { time_gte: iso(NOW - 3600_000), time_lt: iso(NOW) };
const GAUGE = 'bad.input.gauge';
const DSN = `http://${PROJECT1_TOKEN}@127.0.0.1/1`;
const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const SPAN_ID = 'b7ad6b7169203331';
const MB_STRING = 'a'.repeat(1_000_000);
const DEEP_TEXT = '['.repeat(400_000) + ']'.repeat(400_000);
/** Stands for a field value nested 100k deep: put into the JSON text by `json` (JSON.stringify would overflow). */
const DEEP = '\u0001deep\u0001';
const DEEP_VALUE = '['.repeat(100_000) + ']'.repeat(100_000);

/** Ids of the objects the sweep aims at (created in beforeAll). */
const fx = {
  dashId: '',
  colId: '',
  gaugeId: '',
  errorMonitorId: '',
  metricMonitorId: '',
  webhookId: '',
  slackId: '',
  viewId: '',
};

interface Answer {
  status: number;
  text: string;
  json: unknown;
}

interface Case {
  name: string;
  method: string;
  path: string;
  query?: URLSearchParams | string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send without the session cookie. */
  anonymous?: boolean;
  /** What the case must answer; default: 2xx or 4xx with {code, message}. */
  expect?: 'any' | '4xx' | '400' | '401' | '404or405';
  /** Statuses besides 2xx/4xx that are right for this route (302 for SSO). */
  allow?: number[];
}

/**
 * Node's HTTP client on kept-alive sockets rather than fetch: the same request line (the URL parsed
 * as fetch parses it) and headers, at a third of the client's CPU over the sweep's ~10,000 requests.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 8 });
afterAll(() => agent.destroy());

async function send(c: Case): Promise<Answer> {
  const qs = c.query === undefined ? '' : typeof c.query === 'string' ? c.query : c.query.toString();
  const url = new URL(`${base}${c.path}${qs ? `?${qs}` : ''}`);
  const headers: Record<string, string> = { accept: '*/*', ...(c.anonymous ? {} : { cookie }), ...c.headers };
  if (c.body !== undefined) headers['content-length'] = String(Buffer.byteLength(c.body));
  else if (c.method !== 'GET' && c.method !== 'HEAD') headers['content-length'] = '0';
  return new Promise<Answer>((resolve, reject) => {
    const req = request(
      { agent, host: url.hostname, port: url.port, method: c.method, path: url.pathname + url.search, headers },
      (res) => {
        const status = res.statusCode ?? 0;
        // An accepted live tail (issue 38) is an event stream that stays open: its opening answer is
        // the answer; the stream is closed here (the server lets go of it).
        if (status >= 200 && status < 300 && res.headers['content-type']?.startsWith('text/event-stream')) {
          res.destroy();
          resolve({ status, text: '', json: undefined });
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status, text, json });
        });
      },
    );
    // A request that hangs is a failure of its own, not a stuck run.
    req.setTimeout(20_000, () => req.destroy(new Error('no answer within 20 s')));
    req.on('error', reject);
    req.end(c.body);
  });
}

const isErrorBody = (v: unknown): boolean =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as { code?: unknown }).code === 'string' &&
  typeof (v as { message?: unknown }).message === 'string';

/** The Prometheus API (issue 37) refuses in Prometheus's shape: `{status: "error", errorType, error}`. */
const isPromErrorBody = (v: unknown): boolean =>
  typeof v === 'object' &&
  v !== null &&
  (v as { status?: unknown }).status === 'error' &&
  typeof (v as { errorType?: unknown }).errorType === 'string' &&
  typeof (v as { error?: unknown }).error === 'string';
const isPromPath = (path: string) => path.startsWith(`${PROMETHEUS_PREFIX}/`);

/** Why an answer breaks the rule for a case; null when it keeps it. */
function judge(c: Case, a: Answer): string | null {
  const s = a.status;
  if (c.allow?.includes(s)) return null;
  if (s >= 500) return `answered ${s}`;
  if (s >= 400 && !isErrorBody(a.json) && !(isPromPath(c.path) && isPromErrorBody(a.json)))
    return `answered ${s} without {code, message}`;
  // Codes are Lantern's own: a framework's internal error code tells a client nothing stable.
  if (s >= 400 && isErrorBody(a.json) && /^fst_/.test((a.json as { code: string }).code))
    return `answered with a Fastify error code`;
  if (c.expect === '4xx' && !(s >= 400 && s < 500)) return `answered ${s}, expected a 4xx`;
  if (c.expect === '400' && s !== 400) return `answered ${s}, expected 400`;
  if (c.expect === '401' && s !== 401) return `answered ${s}, expected 401`;
  if (c.expect === '404or405' && s !== 404 && s !== 405) return `answered ${s}, expected 404 or 405`;
  if (s >= 300 && s < 400) return `answered ${s}`;
  return null;
}

/** Runs cases a few at a time; answers the broken ones as readable lines. */
async function sweep(cases: Case[], concurrency = 6): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++];
      let why: string | null;
      let a: Answer | undefined;
      try {
        a = await send(c);
        why = judge(c, a);
      } catch (err) {
        const cause = (err as { cause?: Error }).cause;
        why = `no answer: ${(err as Error).message} ${cause?.message ?? ''}`;
      }
      if (why) failures.push(`${c.name}: ${why} ${a ? a.text.slice(0, 200) : ''}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return failures.sort();
}

// ---- what a valid request of each route looks like ---------------------------------------------

function validParams(c: AnyRouteContract): Record<string, string> {
  const p = c.path;
  const id = p.includes('/monitors/')
    ? c.id === 'updateMetricMonitor'
      ? fx.metricMonitorId
      : fx.errorMonitorId
    : p.includes('/alerts/')
      ? '999999'
      : p.includes('/slack/')
        ? fx.slackId
        : p.includes('/notification-channels/')
          ? fx.webhookId
          : 'nope';
  return {
    projectId: '1',
    dashId: fx.dashId,
    colId: fx.colId,
    gaugeId: fx.gaugeId,
    viewId: fx.viewId,
    traceId: TRACE_ID,
    spanId: SPAN_ID,
    file: 'swagger-ui.css',
    name: 'job',
    id,
  };
}

const fill = (c: AnyRouteContract, params: Record<string, string>) =>
  c.path.replace(/:([A-Za-z0-9_]+)/g, (_, n: string) => params[n]);

const metricQuery = { ...RANGE, metric: GAUGE, alias: 'g', query: 'avg($g) as g' };
const validQueries: Record<string, Record<string, string | string[]>> = {
  tracingSystems: { ...RANGE, system: 'all' },
  tracingGroups: { ...RANGE, system: 'all', query: 'group by .group_id' },
  tracingGroupStats: { ...RANGE, system: 'all', column: 'count()' },
  tracingPercentiles: { ...RANGE, system: 'all' },
  tracingSpans: { ...RANGE, system: 'all' },
  tracingTimeseries: { ...RANGE, system: 'all', query: 'per_min(count())' },
  tracingAttrKeys: { ...RANGE },
  tracingAttrValues: { ...RANGE, attr_key: 'service.name' },
  tracingAttrDeltas: { ...RANGE, system: 'all', selection: 'where .duration > 1ms' },
  tracingDurationHeatmap: { ...RANGE, system: 'all' },
  traceSearch: { trace_id: TRACE_ID },
  metricsList: { ...RANGE },
  metricsStats: { ...RANGE },
  metricsDescribe: { metric: GAUGE },
  metricsTimeseries: metricQuery,
  metricsTable: metricQuery,
  metricsGauge: metricQuery,
  metricsHeatmap: metricQuery,
  metricsAttrKeys: { ...RANGE, metric: GAUGE },
  metricsAttrValues: { ...RANGE, metric: GAUGE, attr_key: 'host.name' },
  gauges: { dash_kind: 'grid' },
  monitors: { page: '1', limit: '10' },
  alerts: { q: '', sort_by: 'updated_at' },
  closeAllAlerts: { q: 'no such alert anywhere' },
};

const metricParams = () => ({
  metrics: [{ name: GAUGE, alias: 'g' }],
  query: 'avg($g) as g',
  column: 'g',
  columnUnit: '',
  forDuration: 5,
  forDurationUnit: 'minutes',
  minValue: 0,
  maxValue: 1,
});
const chartColumn = () => ({
  type: 'chart',
  name: 'chart',
  description: '',
  width: 6,
  height: 10,
  xAxis: 0,
  yAxis: 0,
  params: { chartKind: 'line', metrics: [{ name: GAUGE, alias: 'g' }], query: 'avg($g)', columnMap: {} },
});
const gauge = () => ({
  dashKind: 'grid',
  name: 'gauge',
  description: 'a gauge',
  metrics: [{ name: GAUGE, alias: 'g' }],
  query: 'avg($g)',
  columnMap: {},
});
const webhook = () => ({
  type: 'webhook',
  name: 'hook',
  params: { url: 'http://127.0.0.1:9/hook', payload: '{"text": "hi"}' },
});
const slack = () => ({ name: 'slack', params: { webhookUrl: 'http://127.0.0.1:9/slack' } });

function validBody(id: string): unknown {
  switch (id) {
    case 'login':
      return { email: 'nobody@example.com', password: 'not-the-password' };
    case 'createSavedView':
      return { name: 'view', route: 'SpanGroupList', params: { system: 'all' }, query: { query: '' } };
    case 'pinFacet':
    case 'unpinFacet':
      return { attr: 'bad.input.attr' };
    case 'createDashboard':
      return { name: 'dash' };
    case 'updateDashboard':
      return { name: 'dash', gridQuery: '' };
    case 'updateDashboardTable':
      return { tableMetrics: [{ name: GAUGE, alias: 'g' }], tableQuery: 'avg($g)', tableColumnMap: {} };
    case 'layoutGrid':
      return [{ id: fx.colId, width: 6, height: 10, xAxis: 0, yAxis: 0 }];
    case 'addGridColumn':
    case 'updateGridColumn':
      return chartColumn();
    case 'addGauge':
    case 'updateGauge':
      return gauge();
    case 'reorderGauges':
      return [{ id: fx.gaugeId, index: 0 }];
    case 'createMetricMonitor':
    case 'updateMetricMonitor':
      return { name: 'metric monitor', notifyEveryoneByEmail: false, channelIds: [], params: metricParams() };
    case 'previewMetricMonitor':
      return { params: metricParams(), ...RANGE };
    case 'createErrorMonitor':
    case 'updateErrorMonitor':
      return {
        name: 'error monitor',
        notifyEveryoneByEmail: false,
        channelIds: [],
        params: {
          notifyOnNewErrors: true,
          notifyOnRecurringErrors: true,
          matchers: [{ attr: 'a', op: '=', value: 'b' }],
        },
      };
    case 'closeAlerts':
    case 'openAlerts':
    case 'deleteAlerts':
      return { alertIds: [999999] };
    case 'updateEmailChannel':
      return {
        notifyOnMetrics: true,
        notifyOnNewErrors: true,
        notifyOnRecurringErrors: true,
        errorMatchers: [{ attr: 'a', value: 'b' }],
      };
    case 'createSlackChannel':
    case 'updateSlackChannel':
      return slack();
    case 'createWebhookChannel':
    case 'updateWebhookChannel':
      return webhook();
    default:
      throw new Error(`no valid body for ${id}`);
  }
}

// ---- the bad inputs ---------------------------------------------------------------------------

/** Path param values that name nothing: each must be a 4xx (or the route's own redirect). */
const BAD_PATH_VALUES: Record<string, string> = {
  letters: 'abc',
  negative: '-1',
  fraction: '1.5',
  'hex 0x': '0x10',
  '2^64': '18446744073709551616',
  'unknown id': '987654321',
  'over int32 (10 digits)': '4294967296',
  'over int32 (12 digits)': '999999999999',
  'leading space': '%201',
  NUL: 'a%00b',
  'encoded slash': '1%2F2',
  'long (90)': 'x'.repeat(90),
};

/** Values for one query param (the rest valid). */
const BAD_QUERY_VALUES: Record<string, string | string[]> = {
  letters: 'abc',
  negative: '-1',
  '2^64': '18446744073709551616',
  '1e309': '1e309',
  empty: '',
  'long (6000)': 'x'.repeat(6000),
  array: ['a', 'b'],
  NUL: 'a\u0000b',
  'lone surrogate': '\ud800',
  'invalid date': '2026-13-45T99:99:99Z',
  // The alert filter's `monitor:<id>` with an id no database integer holds (a 500 on PostgreSQL).
  'monitor id over int32': 'monitor:4294967296',
};

const TRACING_QUERY_GARBAGE = [
  'where',
  'where .duration >',
  'where .duration > "abc"',
  'where service.name = "unterminated',
  "where service.name = 'x",
  'where (((((',
  'where a = 1 ) ) )',
  'group by',
  'group by group by',
  '| | | |',
  'p99(',
  'p99(.duration',
  'uniq(uniq(uniq(.name)))',
  'sum(service.name)',
  'where .duration > 1e999',
  'where .duration > 18446744073709551616',
  'where .duration > -99999999999999999999',
  'where {.name,.kind} contains',
  'where service.name in ()',
  'where service.name like "%%%%%%"',
  'where .name = "\u0000"',
  "where x = '; DROP TABLE spans; --",
  'where `a` = 1',
  'count() as',
  'count() as count() as x',
  'per_min(count()) as "a b"',
  'where 𝔘ñí = "🚀"',
  'group by ' + Array.from({ length: 300 }, (_, i) => `a${i}`).join(', '),
  'where a = 1 and ' + 'b = 2 and '.repeat(400) + 'c = 3',
  'x'.repeat(10_000),
  'x'.repeat(10_001),
];

const METRICS_QUERY_GARBAGE = [
  '$',
  '$g +',
  'avg($g',
  'avg($g) as',
  'avg($g) as 1',
  'avg($nope)',
  '$g | group by',
  '$g | where',
  '$g | where host.name = "unterminated',
  'avg($g) / 0',
  '$g{host.name="x"',
  'per_min(per_min(per_min($g)))',
  'p99($g)',
  '| | |',
  '$g * $g * $g * '.repeat(200) + '$g',
  'avg($g) as g | group by ' + Array.from({ length: 300 }, (_, i) => `a${i}`).join(', '),
  '\u0000',
  "'; DROP TABLE metrics; --",
  'avg($g) as "🚀"',
];

/**
 * Whole bodies that are not the JSON the route takes (sent as application/json unless said).
 * `parses`: a route that reads no body may take it (and act: a DELETE deletes).
 */
const BAD_RAW_BODIES: Record<string, { body: string | Buffer; type?: string; parses?: true }> = {
  'not JSON': { body: 'not json at all' },
  'truncated JSON': { body: '{"name": "x", "par' },
  'empty JSON body': { body: '' },
  __proto__: { body: '{"__proto__": {"polluted": true}, "name": "x"}' },
  'constructor.prototype': { body: '{"constructor": {"prototype": {"polluted": true}}}' },
  'over the 1 MB limit': { body: JSON.stringify({ name: 'a'.repeat(1_100_000) }) },
  'JSON as text/plain': { body: '{}', type: 'text/plain', parses: true },
  'JSON as form': { body: 'a=1&b=2', type: 'application/x-www-form-urlencoded', parses: true },
  'invalid UTF-8': { body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), parses: true },
  'deep nesting (400k)': { body: DEEP_TEXT, parses: true },
};

/** Bodies that are JSON but not an object / not the right shape at all. */
const WRONG_JSON: Record<string, unknown> = {
  array: [],
  'array of objects': [{}],
  null: null,
  string: 'a string',
  number: 42,
  boolean: true,
  'empty object': {},
};

/** Replacements for one field of a valid body. */
const FIELD_VALUES: Record<string, () => unknown> = {
  null: () => null,
  negative: () => -1,
  huge: () => 1e308,
  'over int32': () => 2 ** 32,
  string: () => 'str',
  array: () => [],
  object: () => ({}),
  '1 MB string': () => MB_STRING,
  NUL: () => 'a\u0000b',
  'lone surrogate': () => '\ud800\u202e🚀',
  'deep nesting (100k)': () => DEEP,
};

type Json = unknown;
/** Every path into a JSON value: object keys and the first element of arrays. */
function paths(v: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [];
  if (Array.isArray(v)) {
    if (v.length) out.push([...prefix, 0], ...paths(v[0], [...prefix, 0]));
  } else if (typeof v === 'object' && v !== null) {
    for (const [k, child] of Object.entries(v)) out.push([...prefix, k], ...paths(child, [...prefix, k]));
  }
  return out;
}

function withValue(v: Json, path: (string | number)[], value: unknown, remove = false): Json {
  const copy = structuredClone(v) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (remove) {
    if (Array.isArray(at)) at.splice(Number(last), 1);
    else delete at[last];
  } else at[last] = value;
  return copy;
}

const json = (v: unknown) => ({
  body: JSON.stringify(v).replaceAll(JSON.stringify(DEEP), DEEP_VALUE),
  headers: { 'content-type': 'application/json' },
});
const hasJsonBody = (c: AnyRouteContract) => c.body !== undefined;
const isIngest = (c: AnyRouteContract) => c.auth === 'dsn';
const isYaml = (c: AnyRouteContract) => c.rawBody?.media.includes('text/yaml') ?? false;
/** Routes the ingest fuzz test sends to. */
const FUZZED_INGEST = ['/v1/traces', '/v1/logs', '/v1/metrics', '/api/v2/spans', '/api/v1/vector/logs'];

function casesFor(c: AnyRouteContract): Case[] {
  const cases: Case[] = [];
  const params = validParams(c);
  const path = fill(c, params);
  const allow = c.id.startsWith('sso') ? [302] : undefined;
  const name = (what: string) => `${c.id} ${what}`;
  const validQuery = validQueries[c.id] ?? {};
  const qs = (q: Record<string, string | string[]>) => {
    const sp = new URLSearchParams();
    for (const [k, v] of Object.entries(q)) for (const item of [v].flat()) sp.append(k, item);
    return sp;
  };
  const dsnHeaders: Record<string, string> = isIngest(c) ? { 'lantern-dsn': DSN } : {};
  // Sign-out with the sweep's own session would end it.
  const anonymous = c.id === 'logout';

  // Path params that name nothing.
  for (const p of c.path.match(/:([A-Za-z0-9_]+)/g) ?? []) {
    const param = p.slice(1);
    for (const [what, value] of Object.entries(BAD_PATH_VALUES)) {
      const bad = fill(c, { ...params, [param]: value });
      const body = hasJsonBody(c) ? json(validBody(c.id)) : { body: undefined, headers: undefined };
      cases.push({
        name: name(`path ${param}=${what}`),
        method: c.method,
        path: bad,
        query: qs(validQuery),
        body: body.body,
        headers: body.headers,
        // A label name is not an id: any text names a label (that has no values), as in Prometheus.
        expect: c.id.startsWith('sso') || (isPromPath(c.path) && param === 'name') ? 'any' : '4xx',
        allow,
      });
    }
  }

  // Query params: each key of the contract's query, one at a time.
  const queryKeys = Object.keys((c.query as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});
  const destructive = c.method === 'DELETE' || c.id === 'sendDemoData';
  if (c.query && !destructive) {
    for (const key of [...new Set([...queryKeys, ...Object.keys(validQuery)])]) {
      for (const [what, value] of Object.entries(BAD_QUERY_VALUES))
        cases.push({
          name: name(`query ${key}=${what}`),
          method: c.method,
          path,
          query: qs({ ...validQuery, [key]: value }),
          headers: dsnHeaders,
          allow,
        });
      cases.push({
        name: name(`query ${key}[]=list`),
        method: c.method,
        path,
        query: (() => {
          const sp = qs({ ...validQuery });
          sp.delete(key);
          sp.append(`${key}[]`, 'a');
          sp.append(`${key}[]`, 'b');
          return sp;
        })(),
        headers: dsnHeaders,
        allow,
      });
    }
    for (const key of ['__proto__', 'constructor', 'toString', 'unknown_param', 'attrs[x]'])
      cases.push({
        name: name(`query extra ${key}`),
        method: c.method,
        path,
        query: `${qs(validQuery).toString()}&${encodeURIComponent(key)}=1&${encodeURIComponent(key)}=2`,
        headers: dsnHeaders,
        allow,
      });
    // Every query param missing.
    cases.push({ name: name('query none'), method: c.method, path, headers: dsnHeaders, allow });
  }

  // Query params a route does not read are ignored (on routes without a query too).
  if (!destructive)
    cases.push({
      name: name('unknown query params'),
      method: c.method,
      path,
      query: `${qs(validQuery).toString()}&x=1&x[]=2&__proto__=3&__proto__=4&y[z]=5`,
      headers: dsnHeaders,
      anonymous,
      allow,
    });

  // Time ranges that are backwards, empty, enormous, or not times.
  if (queryKeys.includes('time_gte') && queryKeys.includes('time_lt')) {
    const ranges: Record<string, [string, string]> = {
      'gte > lt': [RANGE.time_lt, RANGE.time_gte],
      'gte = lt': [RANGE.time_gte, RANGE.time_gte],
      'year 1 to 9999': ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z'],
      '1970': ['1970-01-01T00:00:00Z', '1970-01-01T00:01:00Z'],
      'before 1970': ['1969-12-31T23:00:00Z', '1970-01-01T00:30:00Z'],
      'year 1': ['0001-01-01T00:00:00Z', '0001-01-01T01:00:00Z'],
      'after 2106': ['2200-01-01T00:00:00Z', '2200-01-01T01:00:00Z'],
      'year 275760': ['+275760-09-13T00:00:00Z', '+275760-09-13T00:00:00Z'],
      'unix 1 to 9': ['1', '9'],
      'unix seconds': [String(NOW / 1000 - 3600), String(NOW / 1000)],
      'unix huge': ['99999999999999', '999999999999999'],
      'unix negative': ['-100000', '-1'],
      compact: ['20260101T000000', '20260101T010000'],
      'compact invalid': ['20261399T999999', '20261499T999999'],
      'date only': ['2026-01-01', '2026-01-02'],
      offset: ['2026-01-01T00:00:00+14:00', '2026-01-01T00:00:00-12:00'],
      words: ['yesterday', 'now'],
    };
    for (const [what, [gte, lt]] of Object.entries(ranges))
      cases.push({
        name: name(`time range ${what}`),
        method: c.method,
        path,
        query: qs({ ...validQuery, time_gte: gte, time_lt: lt }),
        allow,
      });
  }

  // The query languages.
  if (c.path.startsWith('/api/v1/tracing/') && queryKeys.includes('query'))
    for (const q of TRACING_QUERY_GARBAGE)
      cases.push({
        name: name(`tracing query ${JSON.stringify(q.slice(0, 40))}`),
        method: c.method,
        path,
        query: qs({ ...validQuery, query: q }),
      });
  if (c.path.startsWith('/api/v1/metrics/') && queryKeys.includes('query') && queryKeys.includes('alias')) {
    for (const q of METRICS_QUERY_GARBAGE)
      cases.push({
        name: name(`metrics query ${JSON.stringify(q.slice(0, 40))}`),
        method: c.method,
        path,
        query: qs({ ...validQuery, query: q }),
      });
    const metricsCases: Record<string, Record<string, string | string[]>> = {
      'more metrics than aliases': { metric: [GAUGE, GAUGE], alias: ['g'] },
      'more aliases than metrics': { metric: [GAUGE], alias: ['g', 'h'] },
      'duplicate aliases': { metric: [GAUGE, GAUGE], alias: ['g', 'g'] },
      'alias with quotes': { alias: `g'"\`` },
      'alias with spaces': { alias: 'a b' },
      'empty alias': { alias: '' },
      'metric with quotes': { metric: `x'"\`; DROP` },
      'unknown metric': { metric: 'no.such.metric' },
      '100 metrics': {
        metric: Array.from({ length: 100 }, (_, i) => `m${i}`),
        alias: Array.from({ length: 100 }, (_, i) => `a${i}`),
      },
      'sort_by garbage': { sort_by: '`; DROP', sort_desc: 'maybe' },
    };
    for (const [what, over] of Object.entries(metricsCases))
      cases.push({ name: name(what), method: c.method, path, query: qs({ ...validQuery, ...over }) });
  }

  // Bodies.
  const bodyAllowed = c.method !== 'GET';
  if (bodyAllowed && !isYaml(c) && !(isIngest(c) && FUZZED_INGEST.includes(c.path))) {
    for (const [what, b] of Object.entries(BAD_RAW_BODIES)) {
      if (b.parses && !hasJsonBody(c) && !isIngest(c)) continue;
      cases.push({
        name: name(`body ${what}`),
        method: c.method,
        path,
        query: qs(validQuery),
        headers: { 'content-type': b.type ?? 'application/json', ...dsnHeaders },
        body: b.body,
        anonymous,
        // Every route refuses JSON it cannot parse; ingest reads bodies as its own formats. Bytes
        // that are not UTF-8 read as U+FFFD (the JSON stays valid).
        expect: !isIngest(c) && what !== 'invalid UTF-8' ? '4xx' : 'any',
        allow,
      });
    }
  }
  if (hasJsonBody(c)) {
    const good = validBody(c.id);
    for (const [what, v] of Object.entries(WRONG_JSON)) {
      // `{}` is a valid body where every field is optional (a rename changes nothing unless named,
      // e-mail settings have defaults); `[]` is an empty layout or order.
      const valid =
        (what === 'empty object' && ['updateEmailChannel', 'updateDashboard'].includes(c.id)) ||
        (what === 'array' && Array.isArray(good));
      const expect = valid ? 'any' : '4xx';
      cases.push({ name: name(`body is ${what}`), method: c.method, path, ...json(v), expect });
    }
    for (const p of paths(good)) {
      const at = p.join('.');
      cases.push({ name: name(`body ${at} missing`), method: c.method, path, ...json(withValue(good, p, 0, true)) });
      const current = p.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], good);
      for (const [what, value] of Object.entries(FIELD_VALUES)) {
        // The costly values where they test something: a long string in place of a string, deep
        // nesting in place of an object or list (and at the top level).
        if (what === '1 MB string' && typeof current !== 'string' && p.length > 1) continue;
        if (what.startsWith('deep') && (typeof current !== 'object' || current === null) && p.length > 1) continue;
        cases.push({
          name: name(`body ${at}=${what}`),
          method: c.method,
          path,
          ...json(withValue(good, p, value())),
        });
      }
    }
    cases.push({ name: name('body with extra fields'), method: c.method, path, ...json(extraFields(good)) });
  }
  return cases;
}

const extraFields = (v: unknown) =>
  Array.isArray(v) ? [...v, { id: 'x', extra: true }] : { ...(v as object), id: 99, projectId: 2, extra: [1] };

/** YAML import bodies: garbage, bombs, and the exported YAML of the fixture with one field broken. */
function yamlCases(c: AnyRouteContract, exported: string): Case[] {
  const path = fill(c, validParams(c));
  const cases: Case[] = [];
  const yamlBodies: Record<string, string> = {
    empty: '',
    'not YAML': ': : : [',
    scalar: 'hello',
    null: 'null',
    number: '42',
    list: '- a\n- b',
    'empty object': '{}',
    'unclosed flow': '[1, 2',
    'deep flow nesting': '['.repeat(100_000),
    'deep block nesting': Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i)}a:`).join('\n'),
    'alias bomb': [
      'a: &a ["x","x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]',
      'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]',
      'h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g,*g]',
      'name: bomb',
      'grid: *h',
    ].join('\n'),
    'recursive alias': 'a: &a\n  b: *a\nname: x',
    'unknown tag': 'name: !!js/function "function(){}"',
    'binary tag': 'name: !!binary aGVsbG8=',
    NUL: 'name: "a\\0b"',
    'duplicate keys': 'name: a\nname: b',
    'merge keys': 'base: &b {name: x}\n<<: *b',
    '1 MB name': `name: ${MB_STRING}`,
  };
  for (const [what, body] of Object.entries(yamlBodies))
    cases.push({
      name: `${c.id} yaml ${what}`,
      method: c.method,
      path,
      headers: { 'content-type': 'text/yaml' },
      body,
    });
  cases.push({
    name: `${c.id} yaml sent as JSON`,
    method: c.method,
    path,
    ...json({ name: 'x' }),
  });
  const doc = YAML.parse(exported) as unknown;
  for (const p of paths(doc)) {
    const at = p.join('.');
    cases.push({
      name: `${c.id} yaml ${at} missing`,
      method: c.method,
      path,
      headers: { 'content-type': 'text/yaml' },
      body: YAML.stringify(withValue(doc, p, 0, true)),
    });
    for (const [what, value] of Object.entries(FIELD_VALUES)) {
      if (!['null', 'huge', 'string', 'array', 'object', 'NUL'].includes(what)) continue;
      cases.push({
        name: `${c.id} yaml ${at}=${what}`,
        method: c.method,
        path,
        headers: { 'content-type': 'text/yaml' },
        body: YAML.stringify(withValue(doc, p, value())),
      });
    }
  }
  return cases;
}

// ---- the server and its fixtures ---------------------------------------------------------------

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

/** The id of the object an answer carries under `key` (`{monitor: {id}}`). */
function idOf(answer: unknown, key: string): string {
  return String((answer as Record<string, { id: string | number }>)[key].id);
}

async function must(method: string, path: string, body?: unknown) {
  const r = await call(method, path, body);
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function sendGaugeMetric() {
  const point = (min: number) => ({
    timeUnixNano: `${(NOW - min * 60_000) * 1_000_000}`,
    asDouble: 0.5,
    attributes: [{ key: 'host.name', value: { stringValue: 'web1' } }],
  });
  const res = await fetch(`${base}/v1/metrics`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'lantern-dsn': DSN },
    body: JSON.stringify({
      resourceMetrics: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'bad-input' } }] },
          scopeMetrics: [
            {
              scope: { name: 'bad-input' },
              metrics: [{ name: GAUGE, unit: '1', gauge: { dataPoints: [1, 2, 3, 4, 5].map(point) } }],
            },
          ],
        },
      ],
    }),
  });
  expect(res.status).toBe(200);
}

let exportedYaml = '';

beforeAll(async () => {
  dataDir = tempDataDir();
  const config = loadConfig({
    env: {
      LANTERN_DB_URL: await testDbUrl(dataDir),
      LANTERN_DATA_DIR: dataDir,
      LANTERN_HTTP_ADDR: '127.0.0.1:0',
      LANTERN_GRPC_ADDR: '127.0.0.1:0',
      LANTERN_LOG_LEVEL: 'silent',
      // One prepare thread, as the test kit's servers have: each thread of a server run from the
      // sources loads the prepare modules through tsx (~0.8 CPU-s a thread at every start).
      LANTERN_INGEST_WORKERS: '1',
      LANTERN_INGEST_FLUSH_INTERVAL_MS: '20',
    },
  });
  // Channel tests go to a closed loopback port (refused at once).
  config.notifications = { ...config.notifications, allow_networks: ['loopback'] };
  // The built-in metrics engine, so monitor queries are checked on save; answers held to their contracts.
  lantern = await composeLantern(config, { alertingLoop: false, webDist: '/nonexistent', checkAnswers: true });
  const { httpPort } = await lantern.listen();
  base = `http://127.0.0.1:${httpPort}`;
  cookie = await signIn(base);

  await sendGaugeMetric();
  const metricBody = validBody('createMetricMonitor');
  let created: { status: number; body: unknown } | undefined;
  for (let i = 0; i < 100; i++) {
    created = await call('POST', '/api/v1/projects/1/monitors/metric', metricBody);
    if (created.status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(created?.status, JSON.stringify(created?.body)).toBe(200);
  fx.metricMonitorId = idOf(created!.body, 'monitor');
  fx.errorMonitorId = idOf(
    await must('POST', '/api/v1/projects/1/monitors/error', validBody('createErrorMonitor')),
    'monitor',
  );
  fx.webhookId = idOf(await must('POST', '/api/v1/projects/1/notification-channels/webhook', webhook()), 'channel');
  fx.slackId = idOf(await must('POST', '/api/v1/projects/1/notification-channels/slack', slack()), 'channel');
  fx.dashId = idOf(await must('POST', '/api/v1/metrics/1/dashboards', { name: 'bad input' }), 'dashboard');
  const dash = `/api/v1/metrics/1/dashboards/${fx.dashId}`;
  fx.colId = idOf(await must('POST', `${dash}/grid`, chartColumn()), 'column');
  fx.gaugeId = idOf(await must('POST', `${dash}/gauges`, gauge()), 'gauge');
  fx.viewId = idOf(await must('POST', '/api/v1/tracing/1/saved-views', validBody('createSavedView')), 'view');
  const y = await fetch(`${base}${dash}/yaml`, { headers: { cookie } });
  expect(y.status).toBe(200);
  exportedYaml = await y.text();
}, 90_000);

afterAll(async () => {
  await lantern?.close();
  if (dataDir) removeDataDir(dataDir);
});

// DELETE routes last (a bad id must not delete a fixture, but if it does the rest still runs).
const ROUTES = [...API_ROUTES].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
const ingestFuzzed = (c: AnyRouteContract) => isIngest(c) && FUZZED_INGEST.includes(c.path);
/**
 * Routes that reach the metadata store only to read the session (telemetry queries, ingest, the
 * Prometheus API's query routes, the docs): on PostgreSQL (the `integration-pg` project) their sweep
 * would repeat the SQLite run's against the same telemetry store, so it runs once. The session read
 * itself is swept on PostgreSQL with every other route; the rules and alerts of the Prometheus API
 * read monitors and alerts, and stay.
 */
const touchesMetadataOnlyForSession = (c: AnyRouteContract) =>
  (['GET', 'HEAD'].includes(c.method) && /^\/api\/(v1\/(health|openapi|internal\/)|docs)/.test(c.path)) ||
  (c.auth === 'dsn' && !/\/(rules|alerts)$/.test(c.path)) ||
  (c.path.startsWith('/api/v1/tracing/') && !c.path.includes('/saved-views')) ||
  c.path.startsWith('/api/v1/traces/') ||
  (c.path.startsWith('/api/v1/metrics/') && !c.path.includes('/dashboards')) ||
  (c.path.startsWith(`${PROMETHEUS_PREFIX}/`) && !/\/(rules|alerts)$/.test(c.path));
const onPostgres = process.env.LANTERN_TEST_METADATA === 'postgres';
const SWEPT = ROUTES.filter((c) => !ingestFuzzed(c) && !(onPostgres && touchesMetadataOnlyForSession(c)));

describe('bad input to every route', () => {
  it('refuses a session route without a session with 401 {code, message}', async () => {
    const cases = API_ROUTES.filter((c) => c.auth === 'session').map((c): Case => ({
      name: `${c.id} without a session`,
      method: c.method,
      path: fill(c, validParams(c)),
      anonymous: true,
      expect: '401',
    }));
    expect(await sweep(cases)).toEqual([]);
  });

  it('answers 403 forbidden for an object of another project (an item of another dashboard) on every per-id route, 404 for one that is nowhere', async () => {
    const other = idOf(await must('POST', '/api/v1/metrics/1/dashboards', { name: 'other' }), 'dashboard');
    const perId = API_ROUTES.filter(
      (c) => c.auth === 'session' && /:projectId\b/.test(c.path) && /:(id|dashId|colId|gaugeId|viewId)\b/.test(c.path),
    );
    expect(perId.length).toBeGreaterThan(30);
    const withBody = (c: AnyRouteContract) =>
      isYaml(c)
        ? { headers: { 'content-type': 'text/yaml' }, body: exportedYaml }
        : hasJsonBody(c)
          ? json(validBody(c.id))
          : {};
    const failures: string[] = [];
    const check = async (what: string, c: AnyRouteContract, params: Record<string, string>, want: number) => {
      const path = fill(c, { ...validParams(c), ...params });
      const r = await send({ name: what, method: c.method, path, ...withBody(c) });
      const code = (r.json as { code?: string } | undefined)?.code;
      const ok =
        want === 403 ? r.status === 403 && code === 'forbidden' : r.status === 404 && /_not_found$/.test(code ?? '');
      if (!ok) failures.push(`${what} ${c.method} ${path}: ${r.status} ${r.text.slice(0, 120)}`);
    };
    // Alerts: no alert fixture; a missing one is 404 in either project (another project's is 403: alertList.int.test).
    for (const c of perId.filter((c) => !c.path.includes('/alerts/')))
      await check('of another project', c, { projectId: '2' }, 403);
    for (const c of perId.filter(
      (c) => /:(colId|gaugeId)\b/.test(c.path) || ['layoutGrid', 'reorderGauges'].includes(c.id),
    ))
      await check('of another dashboard', c, { dashId: other }, 403);
    for (const c of perId)
      for (const projectId of ['1', '2'])
        await check(
          'nowhere',
          c,
          {
            projectId,
            id: '987654321',
            dashId: '987654321',
            colId: '987654321',
            gaugeId: '987654321',
            viewId: '987654321',
          },
          404,
        );
    // The wrong type path: 404 in its own project, 403 in another (GET answered 403 there, PUT 404).
    const typed: [string, string, unknown, number][] = [
      ['PUT', `/api/v1/projects/1/monitors/${fx.errorMonitorId}/metric`, validBody('updateMetricMonitor'), 404],
      ['PUT', `/api/v1/projects/2/monitors/${fx.errorMonitorId}/metric`, validBody('updateMetricMonitor'), 403],
      ['PUT', `/api/v1/projects/2/monitors/${fx.metricMonitorId}/error`, validBody('updateErrorMonitor'), 403],
      ['GET', `/api/v1/projects/1/notification-channels/slack/${fx.webhookId}`, undefined, 404],
      ['GET', `/api/v1/projects/2/notification-channels/slack/${fx.webhookId}`, undefined, 403],
      ['PUT', `/api/v1/projects/2/notification-channels/webhook/${fx.slackId}`, webhook(), 403],
    ];
    for (const [method, path, body, want] of typed) {
      const r = await call(method, path, body);
      if (r.status !== want) failures.push(`wrong type ${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    }
    expect(failures).toEqual([]);
    // Nothing was changed or deleted on the way.
    expect((await call('GET', `/api/v1/metrics/1/dashboards/${fx.dashId}`)).status).toBe(200);
    expect((await call('GET', `/api/v1/projects/1/monitors/${fx.errorMonitorId}`)).status).toBe(200);
    expect((await call('GET', `/api/v1/projects/1/notification-channels/slack/${fx.slackId}`)).status).toBe(200);
    await must('DELETE', `/api/v1/metrics/1/dashboards/${other}`);
  });

  it.each(SWEPT.map((c) => [c.id, c] as const))(
    '%s: never a 5xx, every refusal a 4xx {code, message}',
    async (_id, c) => {
      const cases = [...casesFor(c), ...(isYaml(c) ? yamlCases(c, exportedYaml) : [])];
      expect(cases.length).toBeGreaterThan(0);
      expect(await sweep(cases)).toEqual([]);
    },
  );

  it('refuses what the spec (§5 validation rules) and the contracts say must be refused, with 400', async () => {
    const P = '/api/v1/projects/1';
    const dash = `/api/v1/metrics/1/dashboards/${fx.dashId}`;
    const monitor = (over: Record<string, unknown>) => ({
      ...(validBody('createMetricMonitor') as object),
      params: { ...metricParams(), ...over },
    });
    const hook = (payload: string) => ({ ...webhook(), params: { url: 'http://127.0.0.1:9/hook', payload } });
    const refusals: [string, string, string, unknown][] = [
      ['login without an e-mail', 'POST', '/api/v1/users/login', { email: '', password: 'x' }],
      ['dashboard without a name', 'POST', '/api/v1/metrics/1/dashboards', { name: '  ' }],
      ['dashboard with a 1 MB name', 'POST', '/api/v1/metrics/1/dashboards', { name: MB_STRING }],
      ['dashboard grid query of 20k characters', 'PUT', dash, { gridQuery: 'x'.repeat(20_000) }],
      ['chart without a name', 'POST', `${dash}/grid`, { ...chartColumn(), name: '' }],
      [
        'chart without metrics',
        'POST',
        `${dash}/grid`,
        { ...chartColumn(), params: { metrics: [], query: 'avg($g)' } },
      ],
      [
        'chart with a query that does not parse',
        'POST',
        `${dash}/grid`,
        { ...chartColumn(), params: { metrics: [{ name: GAUGE, alias: 'g' }], query: 'avg($g' } },
      ],
      ['heatmap without a metric', 'POST', `${dash}/grid`, { type: 'heatmap', name: 'h', params: { metric: '' } }],
      [
        'layout with a width no number holds',
        'PUT',
        `${dash}/grid`,
        [{ id: fx.colId, width: 2 ** 53, height: 1, xAxis: 0, yAxis: 0 }],
      ],
      [
        'chart with a column unit of 2000 characters',
        'POST',
        `${dash}/grid`,
        { ...chartColumn(), params: { ...chartColumn().params, columnMap: { g: { unit: 'u'.repeat(2000) } } } },
      ],
      [
        'chart with a series style named with 2000 characters',
        'POST',
        `${dash}/grid`,
        { ...chartColumn(), params: { ...chartColumn().params, timeseriesMap: { ['s'.repeat(2000)]: {} } } },
      ],
      [
        'heatmap with a unit of 2000 characters',
        'POST',
        `${dash}/grid`,
        { type: 'heatmap', name: 'h', params: { metric: GAUGE, unit: 'u'.repeat(2000) } },
      ],
      [
        'table columns named with 2000 characters',
        'PUT',
        `${dash}/table`,
        { tableMetrics: [], tableQuery: '', tableColumnMap: { ['c'.repeat(2000)]: { unit: '' } } },
      ],
      ['gauge without a name', 'POST', `${dash}/gauges`, { ...gauge(), name: ' ' }],
      ['gauge without metrics', 'POST', `${dash}/gauges`, { ...gauge(), metrics: [] }],
      ['metric monitor without a name', 'POST', `${P}/monitors/metric`, { ...monitor({}), name: '' }],
      ['metric monitor without bounds', 'POST', `${P}/monitors/metric`, monitor({ minValue: null, maxValue: null })],
      ['metric monitor with max below min', 'POST', `${P}/monitors/metric`, monitor({ minValue: 2, maxValue: 1 })],
      [
        'metric monitor with an alias that is not a word',
        'POST',
        `${P}/monitors/metric`,
        monitor({ metrics: [{ name: GAUGE, alias: 'a-b' }] }),
      ],
      [
        'metric monitor with duplicated aliases',
        'POST',
        `${P}/monitors/metric`,
        monitor({
          metrics: [
            { name: GAUGE, alias: 'g' },
            { name: GAUGE, alias: 'G' },
          ],
        }),
      ],
      [
        'metric monitor returning two columns',
        'POST',
        `${P}/monitors/metric`,
        monitor({ query: 'avg($g) as g | max($g) as m' }),
      ],
      [
        'metric monitor with query garbage',
        'POST',
        `${P}/monitors/metric`,
        monitor({ query: 'avg($g) as g | where ((' }),
      ],
      [
        'metric monitor grouped by 300 attributes',
        'POST',
        `${P}/monitors/metric`,
        monitor({ query: `avg($g) as g | group by ${Array.from({ length: 300 }, (_, i) => `a${i}`).join(', ')}` }),
      ],
      ['metric monitor with a duration not offered', 'POST', `${P}/monitors/metric`, monitor({ forDuration: 7 })],
      [
        'error monitor naming a channel that does not exist',
        'POST',
        `${P}/monitors/error`,
        { name: 'e', channelIds: [987654] },
      ],
      ['slack channel without a name', 'POST', `${P}/notification-channels/slack`, { ...slack(), name: '' }],
      [
        'slack channel with a file URL',
        'POST',
        `${P}/notification-channels/slack`,
        { name: 's', params: { webhookUrl: 'file:///etc/passwd' } },
      ],
      ['webhook with a payload that is not JSON', 'POST', `${P}/notification-channels/webhook`, hook('{"a":')],
      [
        'webhook with a payload of 20k characters',
        'POST',
        `${P}/notification-channels/webhook`,
        hook(JSON.stringify({ text: 'x'.repeat(20_000) })),
      ],
      [
        'slack channel with a URL of 20k characters',
        'POST',
        `${P}/notification-channels/slack`,
        { name: 's', params: { webhookUrl: `http://127.0.0.1:9/${'a'.repeat(20_000)}` } },
      ],
      [
        'webhook with a payload nested 100k deep',
        'POST',
        `${P}/notification-channels/webhook`,
        hook('['.repeat(100_000) + ']'.repeat(100_000)),
      ],
      [
        'saved view without a name',
        'POST',
        '/api/v1/tracing/1/saved-views',
        { ...(validBody('createSavedView') as object), name: '' },
      ],
      [
        'saved view with params nested 100 deep',
        'POST',
        '/api/v1/tracing/1/saved-views',
        { name: 'v', route: 'r', params: { a: JSON.parse('['.repeat(100) + ']'.repeat(100)) as unknown } },
      ],
      ['alert ids that are not ids', 'PUT', `${P}/alerts/closed`, { alertIds: [-1, 'x'] }],
    ];
    const failures: string[] = [];
    for (const [what, method, path, body] of refusals) {
      const r = await send({ name: what, method, path, ...json(body) });
      if (r.status !== 400 || !isErrorBody(r.json)) failures.push(`${what}: ${r.status} ${r.text.slice(0, 200)}`);
    }
    // PostgreSQL cannot store U+0000 (those were 500s there); SQLite could: refused on both.
    const nul: [string, Case][] = [
      [
        'NUL in a dashboard name',
        { name: '', method: 'POST', path: '/api/v1/metrics/1/dashboards', ...json({ name: 'a\u0000b' }) },
      ],
      [
        'NUL in a YAML body',
        {
          name: '',
          method: 'POST',
          path: '/api/v1/metrics/1/dashboards/yaml',
          headers: { 'content-type': 'text/yaml' },
          body: 'name: a\u0000b',
        },
      ],
      ['NUL in the alert filter', { name: '', method: 'GET', path: `${P}/alerts`, query: 'q=a%00b' }],
      ['NUL in a path id', { name: '', method: 'GET', path: `${P}/monitors/1%00` }],
    ];
    for (const [what, c] of nul) {
      const r = await send(c);
      if (r.status !== 400 || (r.json as { code?: string } | undefined)?.code !== 'invalid_text')
        failures.push(`${what}: ${r.status} ${r.text.slice(0, 200)}`);
    }
    // JSON nested deeper than MAX_BODY_DEPTH is refused before it is parsed; as deep as that is parsed.
    const nestedBody = (depth: number) => `{"x":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    for (const [depth, status, code] of [
      [MAX_BODY_DEPTH + 1, 400, 'json_too_deep'],
      [MAX_BODY_DEPTH, 200, undefined],
    ] as const) {
      const r = await send({ name: '', method: 'PUT', path: dash, headers: json({}).headers, body: nestedBody(depth) });
      if (r.status !== status || (r.json as { code?: string } | undefined)?.code !== code)
        failures.push(`JSON body nested ${depth} deep: ${r.status} ${r.text.slice(0, 200)}`);
    }
    // [what, the dashboard's name, a line of its one grid item, the refusal's message]
    const yaml: [string, string, string, RegExp][] = [
      ['a 2000-character name', 'n'.repeat(2000), '', /^name: is longer than 1000 characters$/],
      ['a grid item wider than a database integer', 'd', 'width: 4294967296', /^grid\[0\]\.width: /],
      ['a column named with 2000 characters', 'd', `columns: {${'c'.repeat(2000)}: {unit: ''}}`, /^grid\[0\]\.columns/],
      [
        'a column unit of 2000 characters',
        'd',
        `columns: {g: {unit: ${'u'.repeat(2000)}}}`,
        /^grid\[0\]\.columns\.g\.unit/,
      ],
      [
        'a series style colour of 2000 characters',
        'd',
        `styles: {g: {color: ${'c'.repeat(2000)}}}`,
        /^grid\[0\]\.styles\.g\.color/,
      ],
    ];
    for (const [what, name, line, message] of yaml) {
      const r = await send({
        name: 'YAML',
        method: 'POST',
        path: '/api/v1/metrics/1/dashboards/yaml',
        headers: { 'content-type': 'text/yaml' },
        body: `schema: v1\nid: x\nname: ${name}\ngrid:\n  - name: c\n    metrics: [${GAUGE} as $g]\n    query: [avg($g)]\n    ${line}\n`,
      });
      const body = r.json as { code?: string; message?: string } | undefined;
      if (r.status !== 400 || body?.code !== 'invalid_yaml' || !message.test(body.message ?? ''))
        failures.push(`YAML dashboard with ${what}: ${r.status} ${r.text.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });

  it('changes nothing when a request that would change several things is refused', async () => {
    const dash = `/api/v1/metrics/1/dashboards/${fx.dashId}`;
    const before = (await must('GET', dash)) as { grid: unknown[] };
    const gaugesBefore = await must('GET', `${dash}/gauges`);
    // A layout naming one real column and one unknown: nothing moves.
    const layout = await call('PUT', `${dash}/grid`, [
      { id: fx.colId, width: 3, height: 3, xAxis: 5, yAxis: 5 },
      { id: '987654', width: 1, height: 1, xAxis: 0, yAxis: 0 },
    ]);
    expect(layout.status).toBe(404);
    // A gauge order naming one unknown gauge: nothing moves.
    expect(
      (
        await call('PUT', `${dash}/gauges`, [
          { id: fx.gaugeId, index: 7 },
          { id: '987654', index: 0 },
        ])
      ).status,
    ).toBe(404);
    // A YAML import whose last grid item is broken: the dashboard keeps its grid.
    const y = await fetch(`${base}${dash}/yaml`, { headers: { cookie } });
    const doc = YAML.parse(await y.text()) as { grid: Record<string, unknown>[] };
    doc.grid.push({ ...doc.grid[0] }, { ...doc.grid[0], width: -1 });
    const imported = await send({
      name: 'import',
      method: 'PUT',
      path: `${dash}/yaml`,
      headers: { 'content-type': 'text/yaml' },
      body: YAML.stringify(doc),
    });
    expect(imported.status, imported.text).toBe(400);
    expect(await must('GET', dash)).toEqual(before);
    expect(await must('GET', `${dash}/gauges`)).toEqual(gaugesBefore);
    // A monitor refused for its query is not created.
    const count = async () =>
      ((await must('GET', '/api/v1/projects/1/monitors?limit=1000')) as { count: number }).count;
    const n = await count();
    const bad = {
      ...(validBody('createMetricMonitor') as object),
      params: { ...metricParams(), query: 'avg($g) as x' },
    };
    expect((await call('POST', '/api/v1/projects/1/monitors/metric', bad)).status).toBe(400);
    expect(await count()).toBe(n);
  });

  it("refuses a dashboard or saved view over the project's cap with 400 {code, message}, writing nothing", async () => {
    // Project 2, filled to both caps: the sweep's own objects are in project 1.
    const dashboards = '/api/v1/metrics/2/dashboards';
    const views = '/api/v1/tracing/2/saved-views';
    const first = (await must('POST', dashboards, { name: 'Full 0' })) as { dashboard: { id: string } };
    for (let i = 1; i < MAX_DASHBOARDS; i += 50)
      await Promise.all(
        Array.from({ length: Math.min(50, MAX_DASHBOARDS - i) }, (_, j) =>
          must('POST', dashboards, { name: `Full ${i + j}` }),
        ),
      );
    for (let i = 0; i < MAX_SAVED_VIEWS; i += 25)
      await Promise.all(
        Array.from({ length: 25 }, (_, j) => must('POST', views, { name: `Full ${i + j}`, route: 'SpanList' })),
      );
    const dashFull = {
      code: 'too_many_dashboards',
      message: `a project can't have more than ${MAX_DASHBOARDS} dashboards`,
    };
    const viewsFull = {
      code: 'too_many_saved_views',
      message: `a project can't have more than ${MAX_SAVED_VIEWS} saved views`,
    };
    const yaml = `schema: v1\nid: x\nname: Over\n`;
    const refusals: [string, Case, unknown][] = [
      ['a new dashboard', { name: '', method: 'POST', path: dashboards, body: '{"name":"Over"}' }, dashFull],
      ['a clone', { name: '', method: 'POST', path: `${dashboards}/${first.dashboard.id}` }, dashFull],
      ['a dashboard from YAML', { name: '', method: 'POST', path: `${dashboards}/yaml`, body: yaml }, dashFull],
      [
        'a saved view',
        { name: '', method: 'POST', path: views, body: '{"name":"Over","route":"SpanList"}' },
        viewsFull,
      ],
    ];
    const failures: string[] = [];
    for (const [what, c, body] of refusals) {
      const type = c.path.endsWith('/yaml') ? 'text/yaml' : 'application/json';
      const r = await send({ ...c, headers: c.body === undefined ? {} : { 'content-type': type } });
      if (r.status !== 400 || JSON.stringify(r.json) !== JSON.stringify(body))
        failures.push(`${what}: ${r.status} ${r.text.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
    expect(((await must('GET', dashboards)) as { dashboards: unknown[] }).dashboards).toHaveLength(MAX_DASHBOARDS);
    expect(((await must('GET', views)) as { views: unknown[] }).views).toHaveLength(MAX_SAVED_VIEWS);
  });

  it('answers a request Node refuses before routing (URL over 16 KB, broken HTTP) with {code, message}', async () => {
    const long = await send({
      name: 'long URL',
      method: 'GET',
      path: `/api/v1/metrics/1/table?query=${'x'.repeat(20_000)}`,
    });
    expect(long.status).toBe(431);
    expect(isErrorBody(long.json), long.text).toBe(true);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(base).port), '127.0.0.1', () =>
        socket.end('GET /api/v1/health HTTP/1.1\r\nHost: x\r\nBroken header line\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (d) => (text += String(d)));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(isErrorBody(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)))).toBe(true);
  });

  it('answers an unknown route with 404 {code, message}, and a wrong method with 404/405 {code, message}', async () => {
    const cases: Case[] = [
      '/api/v1/nope',
      '/api/nope',
      '/v1/nope',
      '/api/v1/projects/1/nope',
      '/api/v1/metrics/1/dashboards/1/nope/deeper',
      '/api/v1/' + 'x'.repeat(5000),
    ].map((path) => ({ name: `unknown ${path.slice(0, 60)}`, method: 'GET', path, expect: '404or405' }));
    const routes = API_ROUTES.map((c) => ({ c, re: new RegExp(`^${c.path.replace(/:[A-Za-z0-9_]+/g, '[^/]+')}$`) }));
    for (const c of API_ROUTES) {
      const path = fill(c, validParams(c));
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
        // Another route answers this method on this path (`/alerts/closed` is also `/alerts/:id`).
        if (routes.some((r) => r.c.method === method && r.re.test(path))) continue;
        cases.push({ name: `${method} ${c.path}`, method, path, expect: '404or405' });
      }
    }
    expect(await sweep(cases)).toEqual([]);
  });

  it('still answers, and every stored object still reads back inside its contract', async () => {
    expect((await call('GET', apiRoutes.health.path)).status).toBe(200);
    expect((await call('GET', apiRoutes.currentUser.path)).status).toBe(200);
    const reads = [
      '/api/v1/metrics/1/dashboards',
      '/api/v1/projects/1/monitors?limit=1000',
      '/api/v1/projects/1/notification-channels',
      '/api/v1/projects/1/notification-channels/email',
      '/api/v1/tracing/1/saved-views',
      '/api/v1/pinned-facets',
      '/api/v1/projects/1/alerts',
    ];
    for (const path of reads) expect((await call('GET', path)).status, path).toBe(200);
    const failures: string[] = [];
    const { dashboards } = (await must('GET', '/api/v1/metrics/1/dashboards')) as { dashboards: { id: string }[] };
    for (const d of dashboards) {
      const dash = `/api/v1/metrics/1/dashboards/${d.id}`;
      for (const path of [dash, `${dash}/gauges`, `${dash}/yaml`]) {
        const r = await fetch(`${base}${path}`, { headers: { cookie } });
        if (r.status !== 200) failures.push(`${path}: ${r.status} ${(await r.text()).slice(0, 200)}`);
      }
    }
    const { monitors } = (await must('GET', '/api/v1/projects/1/monitors?limit=1000')) as {
      monitors: { id: string }[];
    };
    for (const m of monitors) {
      const r = await call('GET', `/api/v1/projects/1/monitors/${m.id}`);
      if (r.status !== 200) failures.push(`monitor ${m.id}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });
});
