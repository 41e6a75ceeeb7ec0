import { beforeAll, describe, expect, it } from 'vitest';
import {
  GroupsResponse,
  PercentilesResponse,
  SystemsResponse,
  TimeseriesResponse,
  type TimeseriesGroup,
} from '@lantern/shared';
import { sendHonestNumbersData } from '@lantern/testkit/honestNumbersData';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * Numbers that mean what they say (issue 20, items 3 and 5), over real OTLP into the real server,
 * with the data of packages/testkit/src/honestNumbersData.ts: `GET /sparse` in minutes 20 and 50 of the hour,
 * `POST /pay` at minute 30, the log records at minute 35. Timeseries leave durations null (a gap) in empty minutes and keep counts 0; log groups have no
 * durations; a log's error follows its severity, not its host span's status.
 */
const server = useLantern({ env: { LANTERN_INGEST_FLUSH_INTERVAL_MS: '50' } });
const hourStart = Math.floor((Date.now() - 2 * 3600_000) / 3600_000) * 3600_000;
const at = (minute: number, ms = 0) => new Date(hourStart + minute * 60_000 + ms);
/** Whole minutes: group and system answers come from the rollups. */
const HOUR = { time_gte: at(0).toISOString(), time_lt: at(60).toISOString() };
/** One second later: the same answers from spans_index. */
const SHIFTED = { time_gte: at(0, 1000).toISOString(), time_lt: at(60, 1000).toISOString() };

async function get(path: string, params: Record<string, string | string[]>) {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...HOUR, ...params })) for (const x of [v].flat()) qs.append(k, x);
  const res = await fetch(`${server.lantern.baseUrl}/api/v1/tracing/1/${path}?${qs}`, {
    headers: { cookie: server.cookie },
  });
  expect(res.status).toBe(200);
  return await res.json();
}

const systems = async (range = HOUR) => SystemsResponse.parse(await get('systems', range)).systems;

beforeAll(async () => {
  const opts = {
    httpUrl: server.lantern.baseUrl,
    grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
    dsn: server.dsn,
  };
  await sendHonestNumbersData(opts, { sparse: [at(20), at(50)], pay: at(30), logs: at(35) });
  for (let i = 0; i < 200; i++) {
    const counts = Object.fromEntries((await systems(SHIFTED)).map((x) => [x.system, x.count]));
    if (
      counts['http:sparse'] === 5 &&
      counts['http:pay'] === 1 &&
      counts['log:error'] === 3 &&
      counts['log:info'] === 3
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('fixtures did not arrive');
});

const series = (g: TimeseriesGroup, column: string) => g[column] as (number | null)[];
const filled = (values: (number | null)[]) => values.flatMap((v, i) => (v === null ? [] : [i]));

describe('timeseries without invented zeros', () => {
  const query =
    'group by .group_id | .count_per_min | .error_rate | {p50,p90,p99}(.duration) | avg(.duration) | max(.duration)';

  it('keeps counts 0 but leaves durations and error rates null in minutes without spans, and plots every column', async () => {
    const r = TimeseriesResponse.parse(await get('timeseries', { query, 'system[]': 'http:sparse' }));
    expect(r.columns.filter((c) => !c.isGroup).map((c) => c.name)).toEqual([
      '.count_per_min',
      '.error_rate',
      'p50(.duration)',
      'p90(.duration)',
      'p99(.duration)',
      'avg(.duration)',
      'max(.duration)',
    ]);
    expect(r.time).toHaveLength(60);
    expect(r.groups).toHaveLength(1);
    const g = r.groups[0];
    const count = series(g, '.count_per_min');
    expect(count.every((v) => v !== null)).toBe(true);
    expect([count[20], count[50], count.reduce((a, b) => a! + b!, 0)]).toEqual([3, 2, 5]);
    for (const c of [
      '.error_rate',
      'p50(.duration)',
      'p90(.duration)',
      'p99(.duration)',
      'avg(.duration)',
      'max(.duration)',
    ]) {
      expect([c, filled(series(g, c))]).toEqual([c, [20, 50]]);
    }
    expect(series(g, 'max(.duration)')[20]).toBe(300e6);
    expect(series(g, 'avg(.duration)')[50]).toBe(450e6);
    expect(series(g, '.error_rate')[50]).toBe(0);
  });

  it('percentiles: durations over spans only, null in minutes without spans', async () => {
    const r = PercentilesResponse.parse(await get('percentiles', { 'system[]': 'all' }));
    // Minute 35 has only log records: counted, but no duration.
    expect(r.count![35]).toBe(5);
    expect([r.p50![35], r.max![35]]).toEqual([null, null]);
    // Minute 30: the 80 ms span and its log event; the log's 0 is no duration.
    expect(r.count![30]).toBe(2);
    expect([r.p50![30], r.max![30]]).toEqual([80e6, 80e6]);
    expect([r.count![0], r.rate![0], r.p50![0], r.p99![0]]).toEqual([0, 0, null, null]);
  });

  it('group-stats (the row sparklines) follow the same rule', async () => {
    const r = (await get('group-stats', {
      'system[]': 'http:sparse',
      'column[]': ['.count', 'p50(.duration)'],
    })) as Record<string, (number | null)[]>;
    expect(r['.count'][0]).toBe(0);
    expect(filled(r['p50(.duration)'])).toEqual([20, 50]);
  });
});

describe('latency over spans only, log errors by severity', () => {
  it.each([
    ['rollups', HOUR],
    ['spans', SHIFTED],
  ])('log groups have no duration percentiles (%s)', async (_label, range) => {
    const r = GroupsResponse.parse(
      await get('groups', {
        ...range,
        query: 'group by .group_id | .count | {p50,p99}(.duration) | max(.duration)',
        'system[]': 'log:all',
      }),
    );
    expect(r.groups.length).toBeGreaterThanOrEqual(3);
    for (const g of r.groups)
      expect([g._name, g['p50(.duration)'], g['p99(.duration)'], g['max(.duration)']]).toEqual([
        g._name,
        null,
        null,
        null,
      ]);
  });

  it.each([
    ['rollups', HOUR],
    ['spans', SHIFTED],
  ])('a log counts as an error by its severity, not its span status (%s)', async (_label, range) => {
    const bySystem = Object.fromEntries((await systems(range)).map((x) => [x.system, [x.count, x.errorCount]]));
    expect(bySystem['log:error']).toEqual([3, 3]);
    expect(bySystem['log:info']).toEqual([3, 0]);
    expect(bySystem['http:pay']).toEqual([1, 1]);
    const r = GroupsResponse.parse(
      await get('groups', {
        ...range,
        query: 'group by .system | .count | .error_count | .error_rate',
        'system[]': 'all',
      }),
    );
    const rate = Object.fromEntries(r.groups.map((g) => [g['.system'], [g['.error_count'], g['.error_rate']]]));
    expect(rate['log:error']).toEqual([3, 1]);
    expect(rate['log:info']).toEqual([0, 0]);
  });

  it('system all: latency of a service is its spans only', async () => {
    const r = GroupsResponse.parse(
      await get('groups', {
        ...SHIFTED,
        query: 'group by service.name | .count | min(.duration) | p50(.duration)',
        'system[]': 'all',
      }),
    );
    const pay = r.groups.find((g) => g['service.name'] === 'pay')!;
    expect([pay['.count'], pay['min(.duration)'], pay['p50(.duration)']]).toEqual([7, 80e6, 80e6]);
  });
});
