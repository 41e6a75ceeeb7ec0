import { describe, expect, it } from 'vitest';
import type { RowBase } from './datapointRows';
import { normalizeMetrics } from './normalizeMetrics';

describe('normalizeMetrics', () => {
  it('drops a datapoint whose time no row can hold, keeps the others, and says why', () => {
    const times = [
      String(BigInt(Date.UTC(2026, 0, 1)) * 1_000_000n), // fine
      '99999999999000000000', // the year 5138: 11 digits of seconds, past the DateTime column
      '5000000000000000', // 1970: fewer than 10 digits of seconds
    ];
    const rows: RowBase[] = [];
    const out = normalizeMetrics(
      {
        resourceMetrics: [
          {
            scopeMetrics: [
              {
                metrics: [
                  {
                    name: 'room.temperature',
                    gauge: { dataPoints: times.map((t) => ({ timeUnixNano: t, asDouble: 21.5 })) },
                  },
                ],
              },
            ],
          },
        ],
      },
      1,
      { row: (base) => rows.push(base), stateful: (base) => rows.push(base) },
    );
    expect(rows.map((r) => r.time)).toEqual([Date.UTC(2026, 0, 1) / 1000]);
    expect(out.rejected).toBe(2);
    expect(out.errors.join('\n')).toContain('datapoint time outside 2001-09-09 to 2106-01-01');
  });
});
