import { SeverityNumber } from '@opentelemetry/api-logs';
import { beforeAll, describe, expect, it } from 'vitest';
import { AttrKeysResponse, GroupsResponse, SystemsResponse, textSearchSystem, textSearchWhere } from '@lantern/shared';
import { createTestLogger } from '@lantern/testkit/otlpClients';
import { DEFAULT_QUERY, tracingTestServer } from './tracingTestServer';

/**
 * Issue 20: attr-keys honours `kind`, `with_columns` and `func` (reference query §6.1), and the
 * top-bar search finds logs by the words of their message. Over the tracing fixtures sent over
 * real OTLP, plus OTel SDK logs of a `billing` service.
 */
const { get, otlp } = tracingTestServer();

beforeAll(async () => {
  const logger = createTestLogger('http-proto', { ...otlp(), serviceName: 'billing' });
  for (let i = 0; i < 6; i++)
    logger.logger.emit({
      severityNumber: SeverityNumber.INFO,
      severityText: 'INFO',
      body: `invoice ${900 + i} reconciled`,
      attributes: { 'invoice.total': 10 + i },
    });
  await logger.shutdown();
  for (let i = 0; i < 100; i++) {
    const r = SystemsResponse.parse((await get('systems', { query: textSearchWhere('reconciled') })).body);
    if (r.systems.reduce((n, s) => n + s.count, 0) >= 6) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the logs never arrived');
});

const keys = async (params: Record<string, string>) => {
  const r = await get('attr-keys', params);
  expect(r.status).toBe(200);
  return AttrKeysResponse.parse(r.body).items.map((i) => i.value);
};

describe('attr-keys kind, with_columns and func', () => {
  it('offers numeric keys for numeric functions: .duration, the numeric span fields and number-valued attributes', async () => {
    for (const func of ['p50', 'avg', 'sum', 'max']) {
      const k = await keys({ func });
      expect(k).toEqual(
        expect.arrayContaining([
          '.duration',
          '.event_count',
          '.event_error_count',
          '.event_log_count',
          '.link_count',
          '.group_id',
          'http.response.status_code',
          'invoice.total',
        ]),
      );
      // Text attributes, text span fields and aggregates do not fit a numeric function.
      for (const bad of [
        'enduser.id',
        'http.route',
        'service.name',
        '.name',
        '.system',
        '.count',
        '.error_rate',
        '.is_event',
      ])
        expect(k).not.toContain(bad);
    }
    expect(await keys({ kind: 'number' })).toContain('.duration');
  });

  it('offers any per-row key for uniq, any and top10, never an aggregate', async () => {
    const k = await keys({ func: 'uniq' });
    expect(k).toEqual(expect.arrayContaining(['enduser.id', 'service.name', '.trace_id', '.name', '.duration']));
    expect(k).not.toContain('.count');
    expect(k).not.toContain('.error_rate');
  });

  it('offers group-by keys for group by: attributes and span fields that name groups', async () => {
    const k = await keys({ kind: 'group' });
    expect(k).toEqual(
      expect.arrayContaining(['service.name', 'enduser.id', '.system', '.group_id', '.name', '.status_code']),
    );
    for (const bad of ['.count', '.error_rate', '.duration', '.time', '.id']) expect(k).not.toContain(bad);
  });

  it('adds every span field with with_columns, aggregates included, for where', async () => {
    const plain = await keys({});
    expect(plain).not.toContain('.duration');
    const k = await keys({ with_columns: '1' });
    expect(k).toEqual(
      expect.arrayContaining(['.duration', '.count', '.error_rate', '.time', '.trace_id', 'service.name']),
    );
    expect(await keys({ kind: 'text' })).toEqual(plain);
  });

  it('follows the query filters and rejects unknown kinds and functions', async () => {
    const k = await keys({ func: 'p90', 'system[]': 'http:api' });
    expect(k).toContain('http.response.status_code');
    expect(k).not.toContain('invoice.total');
    expect((await get('attr-keys', { kind: 'blob' })).status).toBe(400);
    expect((await get('attr-keys', { func: 'drop table' })).status).toBe(400);
  });
});

describe('top-bar search', () => {
  it('finds logs by words of their message and lands on the log groups', async () => {
    const where = textSearchWhere('RECONCILED');
    const systems = SystemsResponse.parse((await get('systems', { query: where })).body).systems;
    expect(systems.every((s) => s.system.startsWith('log:'))).toBe(true);
    expect(textSearchSystem(systems)).toBe('log:all');
    const groups = GroupsResponse.parse(
      (await get('groups', { 'system[]': 'log:all', query: `${DEFAULT_QUERY} | ${where}` })).body,
    );
    expect(groups.groups.map((g) => (g['.count_per_min'] as number) * 60).reduce((a, b) => a + b, 0)).toBeCloseTo(6);
    expect(groups.groups.map((g) => g._name).join(' ')).toContain('reconciled');
  });

  it('finds events by their display name and spans by their name, landing on all', async () => {
    // The exception events of the api spans are named by their message.
    const boom = SystemsResponse.parse((await get('systems', { query: textSearchWhere('boom 3') })).body).systems;
    expect(boom.reduce((n, s) => n + s.count, 0)).toBe(1);
    const spans = SystemsResponse.parse((await get('systems', { query: textSearchWhere('users/:id') })).body).systems;
    expect(spans.map((s) => s.system)).toContain('http:api');
    expect(textSearchSystem(spans)).toBe('all');
  });
});
