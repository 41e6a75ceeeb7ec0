import { describe, expect, it } from 'vitest';
import type { OtlpLogRecord, OtlpLogsRequest } from '../otlp';
import { normalizeLogs } from './normalizeLogs';
import { anyValue, keyValues, type PlainValue } from './spanFixture';

const OPTS = { projectId: 7, groupByEnv: false, groupFuncsByService: false };
const NOW = 1_700_000_000_000_000_000n;
const TRACE = '0af7651916cd43dd8448eb211c80319c';

type RecordSpec = Partial<Omit<OtlpLogRecord, 'attributes'>> & { attrs?: Record<string, PlainValue> };

function request(
  records: RecordSpec[],
  resource: Record<string, PlainValue> = { 'service.name': 'api' },
): OtlpLogsRequest {
  return {
    resourceLogs: [
      {
        resource: { attributes: keyValues(resource) },
        scopeLogs: [
          {
            scope: { name: 'app-logger', version: '2.0', attributes: [] },
            logRecords: records.map(({ attrs, ...r }) => ({
              timeUnixNano: NOW,
              observedTimeUnixNano: 0n,
              severityNumber: 0,
              severityText: '',
              body: null,
              traceId: '',
              spanId: '',
              ...r,
              attributes: keyValues(attrs),
            })),
          },
        ],
      },
    ],
    rejected: 0,
    rejectedMessage: '',
  };
}

const one = (r: RecordSpec) => {
  const rows = normalizeLogs(request([r]), OPTS, NOW + 5n);
  expect(rows).toHaveLength(1);
  return rows[0];
};

describe('normalizeLogs: severity', () => {
  it.each<[string, RecordSpec, string]>([
    ['severity text', { severityText: 'warning' }, 'log:warn'],
    ['severity text wins over the number', { severityText: 'ERROR', severityNumber: 9 }, 'log:error'],
    ['severity number when there is no text', { severityNumber: 17 }, 'log:error'],
    ['severity number FATAL4', { severityNumber: 24 }, 'log:fatal'],
    ['severity number DEBUG2', { severityNumber: 6 }, 'log:debug'],
    ['unrecognised text falls to the number', { severityText: 'Lvl-X', severityNumber: 13 }, 'log:warn'],
    ['alias attribute `level`', { attrs: { level: 'crit' } }, 'log:fatal'],
    ['logfmt level in the message', { body: anyValue('level=error msg=boom') }, 'log:error'],
    ['JSON level in the message', { body: anyValue('{"level":"debug","msg":"tick"}') }, 'log:debug'],
    ['default INFO', { body: anyValue('hello') }, 'log:info'],
    ['unrecognised text and nothing else: INFO', { severityText: 'verbose-ish' }, 'log:info'],
  ])('%s', (_name, spec, system) => {
    const row = one(spec);
    expect(row.system).toBe(system);
    expect(row.type).toBe('log');
    expect(row.eventName).toBe('log');
    expect(row.attrs['log.severity']).toBe(system.slice(4).toUpperCase());
  });
});

describe('normalizeLogs: message', () => {
  it.each<[string, RecordSpec, string, Record<string, unknown>]>([
    ['string body', { body: anyValue('user logged in') }, 'user logged in', {}],
    ['message attribute when there is no body', { attrs: { msg: 'from attr' } }, 'from attr', {}],
    [
      'JSON message: msg is the message, other keys are attributes, nested keys flattened',
      { body: anyValue('{"msg":"payment failed","amount":12.5,"user":{"id":42,"Plan":"pro"},"ok":false}') },
      'payment failed',
      { amount: 12.5, 'user.id': 42, 'user.plan': 'pro', ok: false },
    ],
    ['JSON message without a message key keeps the raw text', { body: anyValue('{"a":1}') }, '{"a":1}', { a: 1 }],
    [
      'logfmt pairs become attributes',
      { body: anyValue('request done path=/users status=200 took="1.5 ms"') },
      'request done path=/users status=200 took="1.5 ms"',
      { path: '/users', status: '200', took: '1.5 ms' },
    ],
    [
      'kvlist body: message key is the message, the rest attributes',
      {
        body: {
          kvlistValue: {
            values: keyValues({
              message: 'structured',
              'http.status': 503,
              nested: { kvlistValue: { values: keyValues({ k: 'v' }) } },
            }),
          },
        },
      },
      'structured',
      { 'http.status': 503, 'nested.k': 'v' },
    ],
    ['an int body is the message as text', { body: anyValue(42) }, '42', {}],
    [
      'body fields never overwrite record attributes (clash → key1)',
      { attrs: { user: 'attr' }, body: anyValue('{"msg":"m","user":"body"}') },
      'm',
      { user: 'attr', user1: 'body' },
    ],
  ])('%s', (_name, spec, message, attrs) => {
    const row = one(spec);
    expect(row.attrs['log.message']).toBe(message);
    expect(row.attrs).toMatchObject(attrs);
  });

  it('keeps resource and scope attributes, with the record winning', () => {
    const row = one({ attrs: { 'service.name': 'override', k: 1 }, body: anyValue('x') });
    expect(row.attrs).toMatchObject({
      'service.name': 'override',
      'otel.library.name': 'app-logger',
      'otel.library.version': '2.0',
      k: 1,
    });
  });

  it('shows the message with its severity as the display name', () => {
    expect(one({ severityText: 'WARN', body: anyValue('disk almost full') }).displayName).toBe('WARN disk almost full');
    expect(one({ severityText: 'INFO', body: anyValue('INFO already prefixed') }).displayName).toBe(
      'INFO already prefixed',
    );
  });
});

describe('normalizeLogs: grouping', () => {
  const group = (message: string, sev = 'INFO') => one({ severityText: sev, body: anyValue(message) }).groupId;
  it('groups lines that differ only in values', () => {
    expect(group('user 42 not found in 3 ms')).toBe(group('user 977 not found in 15 ms'));
    expect(group('{"msg":"cache miss","key":"a"}')).toBe(group('{"msg":"cache miss","key":"b"}'));
  });
  it('separates different words and different severities', () => {
    expect(group('user 42 not found')).not.toBe(group('user 42 deleted'));
    expect(group('user 42 not found', 'INFO')).not.toBe(group('user 42 not found', 'ERROR'));
  });
  it('names the group by the template and keeps the message on the row; one template, one group', () => {
    const rows = ['user 42 from 10.0.0.1 not found after 3ms', 'user 977 from 10.9.8.7 not found after 1.5s'].map((m) =>
      one({ severityText: 'WARN', body: anyValue(m) }),
    );
    expect(rows.map((r) => [r.displayName, r.groupName])).toEqual([
      ['WARN user 42 from 10.0.0.1 not found after 3ms', 'WARN user <num> from <ip> not found after <duration>'],
      ['WARN user 977 from 10.9.8.7 not found after 1.5s', 'WARN user <num> from <ip> not found after <duration>'],
    ]);
    expect(rows[0].groupId).toBe(rows[1].groupId);
  });
  it('names a group of several routes by none of them: the route is not in the group id', () => {
    const routes = ['/api/checkout', '/api/cart/items', '/api/products', '/api/recommendations'];
    const rows = routes.map((r, i) =>
      one({ severityText: 'WARN', body: anyValue(`slow request to ${r} took ${i + 1}s`) }),
    );
    expect(new Set(rows.map((r) => r.groupId)).size).toBe(1);
    expect(new Set(rows.map((r) => r.groupName))).toEqual(new Set(['WARN slow request to <path> took <duration>']));
    expect(rows[1].displayName).toBe('WARN slow request to /api/cart/items took 2s');
  });
  it('names a group of hex ids the same whichever came first: one with no letter reads as a number', () => {
    const names = (messages: string[]) =>
      messages.map((m) => one({ severityText: 'ERROR', body: anyValue(m) })).map((r) => [r.groupId, r.groupName]);
    const a = names(['payment 12345678 declined', 'payment 9f3a2b1c declined']);
    const b = names(['payment 9f3a2b1c declined', 'payment 12345678 declined']);
    expect(new Set([...a, ...b].map(([id]) => id)).size).toBe(1);
    expect(new Set([...a, ...b].map(([, name]) => name))).toEqual(new Set(['ERROR payment <num> declined']));
  });
});

describe('normalizeLogs: trace correlation', () => {
  it('keeps the trace and hangs the row off its span', () => {
    const row = one({ traceId: TRACE, spanId: '00000000000000aa', body: anyValue('in span') });
    expect(row).toMatchObject({ traceId: TRACE, parentId: 0xaan, standalone: false, timeNs: NOW, kind: 'internal' });
    expect(row.id).not.toBe(0n);
  });

  it('gives a log with a trace but no span a parent id of its own', () => {
    const row = one({ traceId: TRACE, body: anyValue('in trace') });
    expect(row.traceId).toBe(TRACE);
    expect(row.parentId).not.toBe(0n);
    expect(row.standalone).toBe(false);
  });

  it('makes a log without a trace a standalone row with a trace id of its own', () => {
    const rows = normalizeLogs(request([{ body: anyValue('a') }, { body: anyValue('a') }]), OPTS, NOW);
    expect(rows.map((r) => r.standalone)).toEqual([true, true]);
    expect(rows[0].parentId).toBe(0n);
    expect(rows[0].traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(rows[0].traceId).not.toBe(rows[1].traceId);
    // Pure: the same request gives the same rows.
    expect(
      normalizeLogs(request([{ body: anyValue('a') }, { body: anyValue('a') }]), OPTS, NOW).map((r) => r.traceId),
    ).toEqual(rows.map((r) => r.traceId));
  });

  it('takes trace and span ids from the message when the record has none', () => {
    const row = one({ body: anyValue(`{"msg":"job done","trace_id":"${TRACE}","span_id":"00000000000000bb"}`) });
    expect(row).toMatchObject({ traceId: TRACE, parentId: 0xbbn, standalone: false });
    expect(row.attrs.trace_id).toBeUndefined();
  });

  it('uses the observed time, then the receive time, when the record has no time', () => {
    expect(one({ timeUnixNano: 0n, observedTimeUnixNano: NOW - 9n }).timeNs).toBe(NOW - 9n);
    expect(one({ timeUnixNano: 0n }).timeNs).toBe(NOW + 5n);
  });
});

describe('normalizeLogs: exceptions', () => {
  it('adds an exception row for a log carrying an exception', () => {
    const rows = normalizeLogs(
      request([
        {
          severityText: 'ERROR',
          traceId: TRACE,
          spanId: '00000000000000aa',
          body: anyValue('charge failed'),
          attrs: { 'exception.type': 'CardError', 'exception.message': 'card 4242 declined' },
        },
      ]),
      OPTS,
      NOW,
    );
    expect(rows.map((r) => [r.eventName, r.system])).toEqual([
      ['log', 'log:error'],
      ['exception', 'log:error'],
    ]);
    const [log, exc] = rows;
    expect(exc).toMatchObject({ traceId: TRACE, parentId: 0xaan, displayName: 'CardError: card 4242 declined' });
    expect(exc.id).not.toBe(log.id);
    expect(exc.groupId).not.toBe(log.groupId);
    const other = normalizeLogs(
      request([
        { body: anyValue('x'), attrs: { 'exception.type': 'CardError', 'exception.message': 'card 1111 declined' } },
      ]),
      OPTS,
      NOW,
    );
    expect(other[1].groupId).toBe(exc.groupId);
  });
});
