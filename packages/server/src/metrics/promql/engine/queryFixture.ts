// Test data and helpers for the engine's unit tests: ten minutes of counters, gauges and a classic
// histogram from 2026-01-01T10:00Z, served by the in-memory source.
import { instantQuery, rangeQuery, type QueryData, type QueryOptions } from './query';
import { MemorySource, series, type MemorySourceOptions } from './memorySource';
import type { SourceSeries } from './source';
import { formatLabels } from './values';

export const T0 = Date.UTC(2026, 0, 1, 10, 0);
export const min = (m: number): number => T0 + m * 60_000;

const range = (from: number, n: number): number[] => Array.from({ length: n }, (_v, i) => from + i);
const same = (v: number): number[] => range(0, 10).map(() => v);

export const DATA: SourceSeries[] = [
  series({ __name__: 'http_requests_total', job: 'api', instance: 'a' }, 'counter', T0, range(1, 10), 100),
  series({ __name__: 'http_requests_total', job: 'api', instance: 'b' }, 'counter', T0, same(2)),
  series({ __name__: 'http_requests_total', job: 'web', instance: 'c' }, 'counter', T0, [0, 0, 6, 6, 0, 0, 6, 0, 0, 6]),
  series({ __name__: 'temp', room: 'x' }, 'gauge', T0, range(20, 10)),
  series({ __name__: 'temp', room: 'y' }, 'gauge', T0, [10, 8, 12, 7, 15, 9, 11, 6, 14, 13]),
  ...(
    [
      ['0.1', 1],
      ['0.5', 3],
      ['1', 4],
      ['+Inf', 5],
    ] as const
  ).flatMap(([le, perMinute]) => [
    series({ __name__: 'lat_bucket', job: 'api', instance: 'a', le }, 'counter', T0, same(perMinute)),
    series({ __name__: 'lat_bucket', job: 'api', instance: 'b', le }, 'counter', T0, same(perMinute * 2)),
  ]),
  series({ __name__: 'team_info', job: 'api', team: 'core' }, 'gauge', T0, same(1)),
  series({ __name__: 'team_info', job: 'web', team: 'front' }, 'gauge', T0, same(1)),
];

export function source(opts: MemorySourceOptions = {}, data: SourceSeries[] = DATA): MemorySource {
  return new MemorySource(data, opts);
}

export const options = (extra: Partial<QueryOptions> = {}): QueryOptions => ({
  signal: new AbortController().signal,
  ...extra,
});

/** An instant query's result as { '{labels}': 'value' } (or the scalar's value under ''). */
export async function instant(
  q: string,
  t = min(10),
  extra: Partial<QueryOptions> = {},
  src = source(),
): Promise<Record<string, string>> {
  return flatten(await instantQuery(src, q, t, options(extra)));
}

export function flatten(d: QueryData): Record<string, string> {
  switch (d.resultType) {
    case 'scalar':
    case 'string':
      return { '': d.result[1] };
    case 'vector':
      return Object.fromEntries(d.result.map((r) => [formatLabels(r.metric), r.value[1]]));
    case 'matrix':
      return Object.fromEntries(
        d.result.map((r) => [formatLabels(r.metric), r.values.map((v) => `${v[0]}:${v[1]}`).join(' ')]),
      );
  }
}

export async function ranged(
  q: string,
  start: number,
  end: number,
  stepMs: number,
  src = source(),
): Promise<Record<string, string>> {
  return flatten(await rangeQuery(src, q, start, end, stepMs, options()));
}

/** Number of the value at a key, for approximate comparisons. */
export const num = (r: Record<string, string>, key: string): number => Number(r[key]);
