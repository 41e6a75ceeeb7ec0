import { describe, expect, it } from 'vitest';
import { minuteChunks } from './copyTelemetry';

describe('minuteChunks', () => {
  it('gathers consecutive minutes up to the chunk size, each range ending after its last minute', () => {
    const minutes = [
      { m: '60', n: '40' },
      { m: '120', n: '50' },
      { m: '600', n: '20' },
      { m: '660', n: '5' },
    ];
    expect(minuteChunks(minutes, 100)).toEqual([
      { from: 60, to: 180, rows: 90 },
      { from: 600, to: 720, rows: 25 },
    ]);
  });

  it('keeps a minute larger than the chunk size whole, and has no chunk for no rows', () => {
    expect(
      minuteChunks(
        [
          { m: 0, n: 500 },
          { m: 60, n: 1 },
        ],
        100,
      ),
    ).toEqual([
      { from: 0, to: 60, rows: 500 },
      { from: 60, to: 120, rows: 1 },
    ]);
    expect(minuteChunks([], 100)).toEqual([]);
  });
});
