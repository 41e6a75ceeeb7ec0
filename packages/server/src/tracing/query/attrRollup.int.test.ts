import { describe, expect, it } from 'vitest';
import { GroupsResponse, PercentilesResponse, SpansResponse, TimeseriesResponse } from '@lantern/shared';
import { createTestTracer } from '@lantern/testkit/otlpClients';
import { DEFAULT_QUERY, jobRolledUp, tracingTestServer } from './tracingTestServer';

/**
 * A filter on service, host or environment alone reads the attribute rollup
 * (`span_attr_groups_15m`, rollup.ts) over whole quarter hours and the spans of the edge minutes;
 * the same query over a range shifted by a second (not whole minutes), or with a second filter
 * that keeps every span, reads the spans. Both must answer the same (percentiles: t-digests of
 * merged states, within 10%). Without a filter (''), the time series of quarter-hour buckets reads
 * the groups' quarter hours (the attribute rollup's environment rows), the percentiles chart of
 * hour buckets the hour rollup, and a span list by duration reads the spans above the group
 * rollups' floor (rollup.ts). The percentiles chart of 5-minute buckets (24 h) and the sparklines
 * by system read the per-system 5-minute rows (span_systems_5m), rolled up every second here; of
 * minute buckets (1 h), the minute rows.
 */
const { base, get, otlp, output } = tracingTestServer({
  LANTERN_SPAN_ROLLUPS_INTERVAL_SECONDS: '1',
  LANTERN_LOG_LEVEL: 'debug',
});

const QUARTER = 15 * 60_000;
const DAY = 86_400_000;
const near = (actual: number, expected: number, tolerance = 0.1) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(Math.abs(expected) * tolerance);
const iso = (ms: number) => new Date(ms).toISOString();

const FILTERS = [
  'where service.name = "api"',
  'where service.name in ("api", "worker") or service.name = "billing"',
  'where service.name != "deep"',
  'where host.name = "test-host"',
  'where host.name = "elsewhere"',
  'where deployment.environment not exists',
];
const QUERY = `${DEFAULT_QUERY} | .error_count | max(.duration) | min(.duration)`;
/** The query with a filter, or without one (''). */
const withFilter = (query: string, filter: string) => (filter ? `${query} | ${filter}` : query);
const EXACT = ['.count_per_min', '.error_rate', '.error_count', 'max(.duration)', 'min(.duration)', '.system'];

/** The time series over base +- `half` with each filter as served and from the spans (a filter every span passes). */
async function timeseries(half: number, filters: readonly string[]) {
  const range = { time_gte: iso(base - half), time_lt: iso(base + half) };
  for (const filter of filters) {
    const rollup = TimeseriesResponse.parse(
      (await get('timeseries', { ...range, query: withFilter(QUERY, filter) })).body,
    );
    // A second filter that every span passes reads the spans.
    const raw = TimeseriesResponse.parse(
      (await get('timeseries', { ...range, query: `${withFilter(QUERY, filter)} | where .duration >= 0` })).body,
    );
    expect(rollup.time).toEqual(raw.time);
    expect(rollup.groups.map((g) => g['.group_id']).sort(), filter).toEqual(
      raw.groups.map((g) => g['.group_id']).sort(),
    );
    const byId = new Map(raw.groups.map((g) => [g['.group_id'], g]));
    for (const g of rollup.groups) {
      const r = byId.get(g['.group_id'])!;
      for (const k of ['.count_per_min', '.error_rate', '.error_count', 'max(.duration)', 'min(.duration)'])
        expect([filter, k, g[k]]).toEqual([filter, k, r[k]]);
      for (const k of ['display.name', '.system']) expect([filter, k, g[k]]).toEqual([filter, k, r[k]]);
      for (const k of ['p50(.duration)', 'p90(.duration)', 'p99(.duration)'])
        (g[k] as (number | null)[]).forEach((v, i) => {
          const w = (r[k] as (number | null)[])[i];
          if (w === null) expect(v).toBeNull();
          else near(v!, w);
        });
    }
  }
}

describe('the attribute rollup answers filtered queries as the spans do', () => {
  const quarter = Math.floor(base / QUARTER) * QUARTER;
  it.each([
    // The fixtures (the minute at `base`) in a whole quarter hour, edges of 7 and 3 minutes.
    ['from the rollup rows', quarter - 2 * 3600_000 - 7 * 60_000, quarter + QUARTER + 3 * 60_000],
    // The fixtures in the edge minutes after the last whole quarter hour.
    ['from the edge spans', base - 3600_000, base + 60_000],
  ])('groups %s', async (_label, gte, lt) => {
    for (const filter of FILTERS) {
      const q = `${QUERY} | ${filter}`;
      const rollup = GroupsResponse.parse(
        (await get('groups', { query: q, time_gte: iso(gte), time_lt: iso(lt) })).body,
      );
      const raw = GroupsResponse.parse(
        (await get('groups', { query: q, time_gte: iso(gte + 1000), time_lt: iso(lt + 1000) })).body,
      );
      if (filter.includes('elsewhere')) expect(rollup.groups).toEqual([]);
      else expect(rollup.groups.length, filter).toBeGreaterThan(0);
      expect(rollup.groups.map((g) => g['.group_id']).sort(), filter).toEqual(
        raw.groups.map((g) => g['.group_id']).sort(),
      );
      const byId = new Map(raw.groups.map((g) => [g['.group_id'], g]));
      for (const g of rollup.groups) {
        const r = byId.get(g['.group_id'])!;
        for (const k of EXACT) expect([filter, k, g[k]]).toEqual([filter, k, r[k]]);
        expect(g['display.name']).toBe(r['display.name']);
        for (const k of ['p50(.duration)', 'p90(.duration)', 'p99(.duration)'])
          if (r[k] === null) expect(g[k]).toBeNull();
          else near(g[k] as number, r[k] as number);
      }
    }
  });

  it.each([
    // 24 h: 15-minute buckets, whole quarter hours once aligned (no edges).
    ['quarter-hour buckets', 12 * 3600_000, ['', ...FILTERS]],
    // 1 h: minute buckets, from the minute rows without a filter (the kept groups').
    ['minute buckets', 30 * 60_000, ['']],
  ])('timeseries of %s', async (_label, half, filters) => {
    await timeseries(half, filters);
  });

  it('span lists: the total from the rollup, the longest spans above its duration floor', async () => {
    const quarter = Math.floor(base / QUARTER) * QUARTER;
    const range = { time_gte: iso(quarter - 3600_000 - 7 * 60_000), time_lt: iso(quarter + QUARTER + 60_000) };
    for (const filter of ['', ...FILTERS])
      for (const page of ['1', '2', '3']) {
        const params = { ...range, sort_by: '.duration', sort_desc: 'true', limit: '3', page };
        const rollup = SpansResponse.parse((await get('spans', { ...params, query: filter })).body);
        // A second filter that every span passes reads the spans.
        const raw = SpansResponse.parse(
          (await get('spans', { ...params, query: withFilter('where .duration >= 0', filter) })).body,
        );
        expect([filter, page, rollup.count]).toEqual([filter, page, raw.count]);
        expect([filter, page, rollup.spans.map((s) => s.id)]).toEqual([filter, page, raw.spans.map((s) => s.id)]);
        if (!filter.includes('elsewhere')) expect(rollup.spans.length).toBe(3);
      }
  });

  it.each([
    // Whole minutes, not whole hours; the fixtures in the whole hours.
    ['from the hour rows', base - 6 * DAY - 37 * 60_000],
    // The fixtures in the minutes after the last whole hour (or before the first, when the next minute is whole).
    ['from the edge minutes', (base + 60_000) % 3600_000 ? base + 60_000 - 7 * DAY : base],
  ])('percentiles of hour buckets (7 days) %s', async (_label, gte) => {
    const range = { time_gte: iso(gte), time_lt: iso(gte + 7 * DAY) };
    for (const system of ['all', 'spans:all', 'http:all']) {
      const rollup = PercentilesResponse.parse((await get('percentiles', { ...range, 'system[]': system })).body);
      const raw = PercentilesResponse.parse(
        (await get('percentiles', { ...range, 'system[]': system, query: 'where .duration >= 0' })).body,
      );
      expect(rollup.time).toHaveLength(168);
      expect(
        rollup.count!.reduce((a, b) => a + b, 0),
        system,
      ).toBeGreaterThan(0);
      for (const k of ['time', 'count', 'rate', 'errorCount', 'errorRate', 'max'] as const)
        expect([system, k, rollup[k]]).toEqual([system, k, raw[k]]);
      for (const k of ['p50', 'p90', 'p99'] as const)
        rollup[k]!.forEach((v, i) => {
          const w = raw[k]![i];
          if (w === null) expect(v).toBeNull();
          else near(v!, w);
        });
    }
  });

  describe('the per-system 5-minute rows', () => {
    const FIVE = 5 * 60_000;
    /** The job (every second here) has rolled the fixtures' window up: the answers below come from its rows. */
    const rolled = (late = false) => jobRolledUp(output, base, 'span systems', late);
    // 24 h: the fixtures' minute in a whole window (edges of 3 and 2 minutes), or in an edge minute.
    const edge = base % FIVE ? base : base + 60_000 - DAY;
    const RANGES: [string, number][] = [
      ['in a whole window', base - 12 * 3600_000 - 2 * 60_000],
      ['in an edge minute', edge],
    ];
    const rangeOf = (gte: number, ms = DAY) => ({ time_gte: iso(gte), time_lt: iso(gte + ms) });

    /** Over 24 h (5-minute buckets), or 1 h (`ms`; minute buckets, from the minute rows). */
    const percentiles = async (gte: number, ms = DAY) => {
      for (const system of ['all', 'spans:all', 'http:all']) {
        const range = rangeOf(gte, ms);
        const rollup = PercentilesResponse.parse((await get('percentiles', { ...range, 'system[]': system })).body);
        // A filter that every span passes reads the spans.
        const raw = PercentilesResponse.parse(
          (await get('percentiles', { ...range, 'system[]': system, query: 'where .duration >= 0' })).body,
        );
        expect(rollup.time!.length).toBeGreaterThanOrEqual(ms === DAY ? 288 : 60);
        expect(rollup.count!.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
        for (const k of ['time', 'count', 'rate', 'errorCount', 'errorRate', 'max'] as const)
          expect([system, k, rollup[k]]).toEqual([system, k, raw[k]]);
        for (const k of ['p50', 'p90', 'p99'] as const)
          rollup[k]!.forEach((v, i) => {
            const w = raw[k]![i];
            if (w === null) expect(v).toBeNull();
            else near(v!, w);
          });
      }
    };

    const COLUMNS = ['.count_per_min', '.error_rate', 'p50(.duration)', 'p90(.duration)', 'p99(.duration)'];
    const OVERVIEW = 'group by .system | .count_per_min | .error_rate | {p50,p90,p99}(.duration) | max(.duration)';
    const sparklines = async (gte: number, ms = DAY, query = OVERVIEW) => {
      const stats = async (query: string) =>
        GroupsResponse.parse(
          (await get('groups', { ...rangeOf(gte, ms), query, stats_column: COLUMNS, stats_rows: '15', limit: '1000' }))
            .body,
        ).stats!;
      const rollup = await stats(query);
      const raw = await stats(`${query} | where .duration >= 0`);
      expect(Object.keys(rollup).length).toBeGreaterThan(1);
      expect(Object.keys(rollup).sort()).toEqual(Object.keys(raw).sort());
      for (const [id, g] of Object.entries(rollup)) {
        const r = raw[id];
        for (const k of Object.keys(g).filter((x) => !x.startsWith('p'))) expect([id, k, g[k]]).toEqual([id, k, r[k]]);
        for (const k of COLUMNS.slice(2))
          g[k].forEach((v, j) => {
            const w = r[k][j];
            if (w === null) expect(v).toBeNull();
            else near(v as number, w as number);
          });
      }
    };

    it.each(RANGES)(
      'answer the percentiles chart of 5-minute buckets (24 h) as the spans do, the fixtures %s',
      async (_label, gte) => {
        await rolled();
        await percentiles(gte);
      },
    );

    it.each(RANGES)('answer the sparklines by system (24 h) as the spans do, the fixtures %s', async (_label, gte) => {
      await rolled();
      await sparklines(gte);
    });

    it('answer the percentiles chart and the sparklines by system of minute buckets (1 h) as the spans do', async () => {
      // The minute rows, whole minutes around the fixtures.
      await percentiles(base - 30 * 60_000, 3600_000);
      await sparklines(base - 30 * 60_000, 3600_000);
    });

    it("answer Explore's sparklines by group (1 h, 24 h, 7 d: minute, quarter-hour and hour rows) as the spans do", async () => {
      // The group rows (span_groups_1m, span_attr_groups_15m, span_groups_1h), not the job's.
      await sparklines(base - 30 * 60_000, 3600_000, DEFAULT_QUERY);
      await sparklines(RANGES[0][1], DAY, DEFAULT_QUERY);
      await sparklines(base - 3 * DAY - 12 * 3600_000, 7 * DAY, DEFAULT_QUERY);
    });

    it('answer as the spans do after a span came late into a rolled-up window, which the job rolls up again', async () => {
      await rolled();
      const at = RANGES[0][1];
      const total = async () =>
        PercentilesResponse.parse((await get('percentiles', rangeOf(at))).body).count!.reduce((a, b) => a + b, 0);
      const before = await total();
      const t = createTestTracer('http-proto', { ...otlp(), serviceName: 'api' });
      t.tracer.startSpan('GET /late', { startTime: base + 1000 }).end(base + 9000);
      await t.shutdown();
      await expect.poll(total, { timeout: 20_000 }).toBe(before + 1);
      await rolled(true);
      await percentiles(at);
      await sparklines(at);
    });

    it('answer as the spans do over a window the job has not rolled up yet (the current one): its hour from the minute rows', async () => {
      await rolled();
      const now = Date.now();
      const t = createTestTracer('http-proto', { ...otlp(), serviceName: 'api' });
      t.tracer.startSpan('GET /now', { startTime: now - 2000 }).end(now - 1000);
      await t.shutdown();
      // 24 h ending with the current window, whole: the job rolls a window up only once it has closed.
      const gte = Math.ceil(now / FIVE) * FIVE - DAY;
      await percentiles(gte);
      await sparklines(gte);
    });
  });
});
