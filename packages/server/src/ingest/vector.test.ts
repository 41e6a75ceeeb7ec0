import { describe, expect, it } from 'vitest';
import { normalizeVector, rfc3339ToNs } from './normalize/normalizeVector';
import { parseVectorBody } from './vector';
import { produceVector } from './zipkinVectorIngest';

const NOW = 1_700_000_000_000_000_000n;
const OPTS = { projectId: 1, groupByEnv: false, groupFuncsByService: false };
const PROJECT = OPTS;

describe('parseVectorBody', () => {
  it('reads one object per line, skipping blank lines and counting bad ones', () => {
    const batch = parseVectorBody(
      '{"message":"a"}\n\n{"message":"b"}\r\nnot json\n[1,2]\n' + '['.repeat(100) + ']'.repeat(100) + '\n',
    );
    expect(batch.events).toEqual([{ message: 'a' }, { message: 'b' }]);
    // "not json", the two numbers of [1,2] (each a record), the too-deep array.
    expect(batch.rejected).toBe(4);
    expect(batch.rejectedMessage).toMatch(/^line 4: not valid JSON/);
  });

  it("reads a JSON array (the http sink's default framing), each element a record", () => {
    const batch = parseVectorBody('[{"message":"a","level":"error"},{"message":"b"}]');
    expect(batch.events).toEqual([{ message: 'a', level: 'error' }, { message: 'b' }]);
    expect(batch.rejected).toBe(0);
  });

  it('counts the elements of an array that are not objects, one each', () => {
    const batch = parseVectorBody('[{"message":"a"}, 1, "x", null, [], {"message":"b"}]');
    expect(batch.events).toEqual([{ message: 'a' }, { message: 'b' }]);
    expect(batch.rejected).toBe(4);
    expect(batch.rejectedMessage).toMatch(/^line 1: array element 2: expected a JSON object/);
  });

  it('reads concatenated and pretty-printed objects, brackets in strings included', () => {
    const batch = parseVectorBody(
      '{"message":"c1 {"}{"message":"c2 ]\\""}\n{\n  "message": "pretty",\n  "n": [1, {"x": 2}]\n}\n',
    );
    expect(batch.events).toEqual([{ message: 'c1 {' }, { message: 'c2 ]"' }, { message: 'pretty', n: [1, { x: 2 }] }]);
    expect(batch.rejected).toBe(0);
  });

  it('a broken line costs that line only', () => {
    const batch = parseVectorBody('{"message":"a"\n{"message":"b"}\n{"message":"c}\n{"bad": x}\n{"message":"d"}');
    expect(batch.events).toEqual([{ message: 'b' }, { message: 'd' }]);
    expect(batch.rejected).toBe(3);
    expect(batch.rejectedMessage).toBe('line 1: not valid JSON (unterminated)');
  });

  it('nothing readable: no events, every record rejected', () => {
    expect(parseVectorBody('hello\nworld\n')).toMatchObject({ events: [], rejected: 2 });
    expect(parseVectorBody('  \n')).toEqual({ events: [], rejected: 0, rejectedMessage: '' });
  });
});

describe('produceVector', () => {
  it('refuses a body with nothing readable (400 invalid_json), keeps partial batches', () => {
    expect(() => produceVector(Buffer.from('not json'), PROJECT, NOW)).toThrow(
      expect.objectContaining({ type: 'invalid_input', code: 'invalid_json' }),
    );
    const ok = produceVector(Buffer.from('[{"message":"a"}, 5]'), PROJECT, NOW);
    expect(ok.rows).toHaveLength(1);
    expect(ok.rejected).toBe(1);
    expect(produceVector(Buffer.from(''), PROJECT, NOW)).toMatchObject({ rows: [], rejected: 0 });
  });
});

describe('normalizeVector', () => {
  it('turns a Vector event into a log row', () => {
    const [row] = normalizeVector(
      [
        {
          message: 'GET /users 200 in 12ms',
          timestamp: '2023-11-14T22:13:20.123456789Z',
          host: 'web-1',
          source_type: 'file',
          service: 'nginx',
          level: 'warning',
          kubernetes: { pod_name: 'web-1-abc' },
        },
      ],
      OPTS,
      NOW,
    );
    expect(row).toMatchObject({
      system: 'log:warn',
      eventName: 'log',
      standalone: true,
      timeNs: 1700000000123456789n,
      displayName: 'WARN GET /users 200 in 12ms',
    });
    expect(row.attrs).toMatchObject({
      'log.message': 'GET /users 200 in 12ms',
      'telemetry.sdk.name': 'vector',
      'service.name': 'nginx',
      host: 'web-1',
      source_type: 'file',
      'kubernetes.pod_name': 'web-1-abc',
    });
    expect(row.attrs.timestamp).toBeUndefined();
    expect(row.attrs.message).toBeUndefined();
  });

  it('takes log.message as is, without storing it twice (reference quirk)', () => {
    const [row] = normalizeVector([{ 'log.message': 'from field', msg: 'other' }], OPTS, NOW);
    expect(row.attrs['log.message']).toBe('from field');
    expect(row.attrs['log.message1']).toBeUndefined();
    expect(row.attrs.msg).toBe('other');
    expect(row.timeNs).toBe(NOW);
  });

  it('ties a line with trace_id/span_id to its trace', () => {
    const [row] = normalizeVector(
      [{ message: 'x', trace_id: '0af7651916cd43dd8448eb211c80319c', span_id: 'b7ad6b7169203331' }],
      OPTS,
      NOW,
    );
    expect(row).toMatchObject({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      parentId: 0xb7ad6b7169203331n,
      standalone: false,
    });
  });
});

describe('rfc3339ToNs', () => {
  it.each<[string, bigint | undefined]>([
    ['2023-11-14T22:13:20Z', 1700000000000000000n],
    ['2023-11-14T22:13:20.5Z', 1700000000500000000n],
    ['2023-11-15T00:13:20.000000001+02:00', 1700000000000000001n],
    ['yesterday', undefined],
    ['2023-11-14', undefined],
  ])('%s', (text, ns) => expect(rfc3339ToNs(text)).toBe(ns));
});
