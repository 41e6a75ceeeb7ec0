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

describe('normalizeMetrics with metrics.drop_attrs', () => {
  const sdk = (version: string) => [
    { key: 'service.name', value: { stringValue: 'api' } },
    { key: 'telemetry.sdk.version', value: { stringValue: version } },
    { key: 'process.pid', value: { intValue: 4242 } },
  ];
  const request = (version: string) => ({
    resourceMetrics: [
      {
        resource: { attributes: sdk(version) },
        scopeMetrics: [
          {
            metrics: [
              {
                name: 'jobs.queued',
                gauge: {
                  dataPoints: [
                    {
                      timeUnixNano: String(BigInt(Date.UTC(2026, 0, 1)) * 1_000_000n),
                      asDouble: 3,
                      attributes: [
                        { key: 'queue', value: { stringValue: 'q1' } },
                        { key: 'process.pid', value: { intValue: 7 } },
                      ],
                    },
                  ],
                },
              },
            ],
          },
        ],
      },
    ],
  });
  const map = (version: string, drop: string[]) => {
    const rows: RowBase[] = [];
    const out = normalizeMetrics(
      request(version),
      1,
      { row: (b) => rows.push(b), stateful: (b) => rows.push(b) },
      drop,
    );
    return { row: rows[0], keys: out.metrics[0].attrKeys };
  };

  it('leaves the listed keys out of the series, resource and datapoint alike, and out of the catalogue', () => {
    const { row, keys } = map('1.0', ['telemetry.sdk.version', 'process.pid']);
    expect(row.keys).toEqual(['queue', 'service.name']);
    expect(row.vals).toEqual(['q1', 'api']);
    expect(keys).toEqual(['queue', 'service.name']);
    // Two SDK versions of one app are one series.
    expect(map('2.0', ['telemetry.sdk.version', 'process.pid']).row.hash).toBe(row.hash);
  });

  it('keeps every key with an empty list, and memoises the two lists apart', () => {
    const kept = map('1.0', []);
    expect(kept.row.keys).toEqual(['process.pid', 'queue', 'service.name', 'telemetry.sdk.version']);
    expect(kept.row.vals[0]).toBe('7');
    expect(map('1.0', ['telemetry.sdk.version', 'process.pid']).row.hash).not.toBe(kept.row.hash);
    expect(map('2.0', []).row.hash).not.toBe(kept.row.hash);
  });
});
