import { describe, expect, it } from 'vitest';
import { testSpan } from '../testSpan';
import { spanColumns, spanValueText } from './spanColumns';

describe('spanColumns', () => {
  it.each([
    ['group by host.name | p50(.duration)', ['host.name']],
    ['group by .group_id | .count_per_min | .error_rate | {p50,p90,p99}(.duration)', []],
    [
      'where service.name = "api" | group by host.name, .kind | avg(db.rows) as rows | count()',
      ['host.name', '.kind', 'db.rows'],
    ],
    [
      'per_min(sum(http.request_size)) | top3(db.system) | service.name',
      ['http.request_size', 'db.system', 'service.name'],
    ],
    ['group by host.name | max(host.name) | .status_code', ['host.name', '.status_code']],
    ['group by .system | group by .time', []],
    ['', []],
  ])('%s -> %j', (query, keys) => {
    expect(spanColumns(query).map((c) => c.key)).toEqual(keys);
  });

  it('formats a span value: attributes as sent, builtins by their unit, missing as a dash', () => {
    const span = testSpan('a', [], {
      attrs: { 'host.name': 'web-1', 'db.rows': 12345, 'http.status_code': 404 },
      kind: 'server',
    });
    const [host, kind, rows, missing] = spanColumns('group by host.name, .kind | sum(db.rows) | avg(net.peer.port)');
    expect(spanValueText(span, host)).toBe('web-1');
    expect(spanValueText(span, kind)).toBe('server');
    expect(spanValueText(span, rows)).toBe('12345');
    expect(spanValueText(span, missing)).toBe('–');
  });
});
