import type { SystemStats } from '@lantern/shared';
import { describe, expect, it } from 'vitest';
import { quickMetrics } from './quickMetrics';

const s = (system: string, rate: number, count = rate, errorCount = 0): SystemStats => ({
  projectId: 1,
  system,
  rate,
  count,
  errorCount,
  errorRate: 0,
  groupCount: 1,
});

describe('quickMetrics', () => {
  it('sums rates per kind, keeps non-zero cards, computes failures over spans', () => {
    const cards = quickMetrics([
      s('http:api', 10, 100, 5),
      s('db:postgresql', 4, 40),
      s('db:redis', 2, 20),
      s('log:error', 3, 30, 30),
      s('funcs', 1, 40, 5),
    ]);
    expect(Object.fromEntries(cards.map((c) => [c.key, c.value]))).toEqual({
      spans: 17,
      http: 10,
      db: 4,
      memdb: 2,
      failures: 5,
      logs: 3,
    });
  });
  it('shows nothing without data', () => {
    expect(quickMetrics([])).toEqual([]);
  });
});
