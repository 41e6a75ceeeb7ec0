import { describe, it, expect } from 'vitest';
import { cleanAttrKey } from './attrKey';

describe('cleanAttrKey (reference ingest §2.3)', () => {
  it.each([
    ['http.method', 'http.method'],
    ['service.name', 'service.name'],
    ['X-Request-Id', 'x_request_id'],
    ['FOO_bar', 'foo_bar'],
    ['foo/bar', 'foo.bar'],
    ['"foo"', 'foo'],
    ['exception.param.<group>', 'exception.param.group'],
    ['привет', ''],
    ['VolumeTotalWriteTime', 'volume_total_write_time'],
    ['XXXX1Foo', 'xxxx1_foo'],
    ['123Foo', '123_foo'],
    ['StatusCheckFailed_System', 'status_check_failed_system'],
    ['httpStatusCode', 'http_status_code'],
    ['with space', 'withspace'],
    ['A', 'a'],
    ['key-ü-x', 'key__x'],
  ])('%j → %j', (input, want) => {
    expect(cleanAttrKey(input)).toBe(want);
  });
});
