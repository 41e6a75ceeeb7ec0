import { describe, expect, it } from 'vitest';
import { normalizeVector, rfc3339ToNs } from './normalize/normalizeVector';
import { parseVectorBody } from './vector';

const NOW = 1_700_000_000_000_000_000n;
const OPTS = { projectId: 1, groupByEnv: false, groupFuncsByService: false };

describe('parseVectorBody', () => {
  it('reads one object per line, skipping blank lines and counting bad ones', () => {
    const batch = parseVectorBody(
      '{"message":"a"}\n\n{"message":"b"}\r\nnot json\n[1,2]\n' + '['.repeat(100) + ']'.repeat(100) + '\n',
    );
    expect(batch.events).toEqual([{ message: 'a' }, { message: 'b' }]);
    expect(batch.rejected).toBe(3);
    expect(batch.rejectedMessage).toMatch(/^line 4: not valid JSON/);
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
