import { describe, expect, it } from 'vitest';
import { boundsOf, cumulativeBuckets, formatLe } from './promBuckets';
import { parseDurationParam, parseTimeParam, PromParams } from './promParams';

describe('Prometheus API parameters', () => {
  it('reads times as Unix seconds with decimals or RFC 3339', () => {
    expect(parseTimeParam('1700000000', 'time')).toBe(1_700_000_000_000);
    expect(parseTimeParam('1700000000.123', 'time')).toBe(1_700_000_000_123);
    expect(parseTimeParam('2023-11-14T22:13:20Z', 'time')).toBe(1_700_000_000_000);
    expect(parseTimeParam('2023-11-14T23:13:20.5+01:00', 'time')).toBe(1_700_000_000_500);
    expect(() => parseTimeParam('yesterday', 'start')).toThrow(
      'invalid parameter "start": cannot parse "yesterday" to a valid timestamp',
    );
  });

  it('reads durations as seconds or Prometheus durations', () => {
    expect(parseDurationParam('15', 'step')).toBe(15_000);
    expect(parseDurationParam('0.5', 'step')).toBe(500);
    expect(parseDurationParam('1h30m', 'step')).toBe(5_400_000);
    expect(parseDurationParam('250ms', 'step')).toBe(250);
    expect(() => parseDurationParam('5 minutes', 'step')).toThrow(
      'invalid parameter "step": cannot parse "5 minutes" to a valid duration',
    );
  });

  it('takes the form body and the query string together, repeated names as lists', () => {
    const p = PromParams.of('/api/v1/series?match[]=up&start=1', 'match%5B%5D=down&end=2');
    expect(p.all('match[]')).toEqual(['down', 'up']);
    expect(p.get('start')).toBe('1');
    expect(p.get('end')).toBe('2');
  });
});

describe('classic buckets from stored histogram maps', () => {
  it('counts every observation at or below each representative, +Inf all of them', () => {
    const bounds = boundsOf([
      [5, 50],
      [50, 500],
    ]);
    expect(bounds).toEqual([5, 50, 500]);
    const cum = cumulativeBuckets(
      [
        { reps: [5, 50], counts: [2, 3] },
        { reps: [50, 500], counts: [1, 4] },
      ],
      bounds,
    );
    expect(cum.map((a) => [...a])).toEqual([
      [2, 0],
      [5, 1],
      [5, 5],
      [5, 5],
    ]);
    expect([5, 0.25, Infinity].map(formatLe)).toEqual(['5', '0.25', '+Inf']);
  });
});
