import { describe, expect, it } from 'vitest';
import type { MetricAlertParams } from '@lantern/shared';
import {
  exploreMetricParams,
  hasMatchingSpans,
  matchingSpansParams,
  matchingSpansQuery,
  metricQueryChips,
  metricTrigger,
  monitorSeriesUnit,
  occurrences,
} from './alertText';

const params = (over: Partial<MetricAlertParams> = {}): MetricAlertParams => ({
  firing: 1,
  outlier: 0.97,
  minutes: 5,
  bounds: { min: null, max: 0.9 },
  monitor: {
    metrics: [{ name: 'system.cpu.utilization', alias: 'cpu' }],
    query: 'avg($cpu) as cpu | where host.name = "web1"',
    column: 'cpu',
    columnUnit: 'utilization',
  },
  ...over,
});

describe('alert texts', () => {
  it("draws a monitor's series in the unit chosen on its form, else the series' own (form and alert card alike)", () => {
    // The alert card used the series' unit first: a column shown in milliseconds on the form came back in µs.
    expect(monitorSeriesUnit('milliseconds', 'microseconds')).toBe('milliseconds');
    expect(monitorSeriesUnit('', 'microseconds')).toBe('microseconds');
    expect(monitorSeriesUnit('bytes', '')).toBe('bytes');
  });
  it('says how the value left the allowed range, in the column unit', () => {
    expect(metricTrigger(params())).toBe('97% more than 90%');
    expect(
      metricTrigger(
        params({
          firing: -1,
          outlier: 2,
          bounds: { min: 5, max: null },
          monitor: { ...params().monitor, columnUnit: '' },
        }),
      ),
    ).toBe('2 less than 5');
    expect(metricTrigger(params({ firing: 0 }))).toBe('');
  });
  it('counts occurrences', () => {
    expect(occurrences({ traceId: '', spanId: '', spanCount: 1, spanCountTime: '' })).toBe('1 occurrence');
    expect(occurrences({ traceId: '', spanId: '', spanCount: 12, spanCountTime: '' })).toBe('12 occurrences');
  });
  it('splits the monitor query into chips and finds its where parts', () => {
    expect(metricQueryChips(params())).toEqual([
      'avg($cpu) as cpu',
      'where host.name = "web1"',
      'from system.cpu.utilization as $cpu',
    ]);
    expect(matchingSpansQuery(params().monitor.query)).toBe(
      '.count_per_min | .error_rate | {p50,p90,p99}(.duration) | where host.name = "web1"',
    );
    expect(matchingSpansQuery('avg($cpu)')).toBe('.count_per_min | .error_rate | {p50,p90,p99}(.duration)');
  });
  it("offers 'Matching spans' only when every metric of the monitor is derived from spans", () => {
    const spans = { name: 'lantern.tracing.spans', fromSpans: true as const };
    const cpu = { name: 'system.cpu.utilization' };
    const over = (...names: string[]) =>
      params({ monitor: { ...params().monitor, metrics: names.map((name, i) => ({ name, alias: `m${i}` })) } });
    expect(hasMatchingSpans(over('lantern.tracing.spans'), [spans])).toBe(true);
    expect(hasMatchingSpans(over('system.cpu.utilization'), [cpu])).toBe(false);
    expect(hasMatchingSpans(over('lantern.tracing.spans', 'system.cpu.utilization'), [spans, cpu])).toBe(false);
    // A metric the catalogue does not know (yet, or any more): nothing says its attributes are spans'.
    expect(hasMatchingSpans(over('lantern.tracing.spans'), [])).toBe(false);
  });
  it("links 'Matching spans' to the spans of the card's range, with or without where parts", () => {
    const range = { time_gte: '2024-03-01T10:00:00.000Z', time_lt: '2024-03-01T11:00:00.000Z' };
    expect(matchingSpansParams(params().monitor.query, range)).toEqual({
      system: 'all',
      query: '.count_per_min | .error_rate | {p50,p90,p99}(.duration) | where host.name = "web1"',
      time_gte: '20240301T100000',
      time_dur: '3600',
    });
    expect(matchingSpansParams('max($depth) | group by queue', range)).toEqual({
      system: 'all',
      query: '.count_per_min | .error_rate | {p50,p90,p99}(.duration)',
      time_gte: '20240301T100000',
      time_dur: '3600',
    });
  });
  it("links 'Explore metric' to the alert's metrics and series query over the card's range", () => {
    const range = { time_gte: '2024-03-01T10:00:00.000Z', time_lt: '2024-03-01T11:00:00.000Z' };
    expect(exploreMetricParams(params(), range)).toEqual({
      metric: ['system.cpu.utilization'],
      alias: ['cpu'],
      query: 'avg($cpu) as cpu | where host.name = "web1"',
      time_gte: '20240301T100000',
      time_dur: '3600',
    });
  });
});
