import { describe, expect, it } from 'vitest';
import { DurationHeatmapResponse } from '@lantern/shared';
import { createTestTracer } from '@lantern/testkit/otlpClients';
import { jobRolledUp, tracingTestServer } from '../query/tracingTestServer';

/**
 * Explore's duration heatmap without a filter, in buckets of whole 5 minutes (6 h and longer),
 * reads the rows per duration bin (`span_durations_5m`, rolled up every second here) for the
 * whole windows of hours they cover, and the spans for the rest (heatmapRollup.ts). A filter that
 * every span passes reads the spans alone: both must give the same answer, field by field.
 */
const { base, get, otlp, output } = tracingTestServer({
  LANTERN_SPAN_ROLLUPS_INTERVAL_SECONDS: '1',
  LANTERN_LOG_LEVEL: 'debug',
});

const FIVE = 5 * 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

/** The job has rolled the fixtures' window up (late: again, after late spans). */
const rolled = (late = false) => jobRolledUp(output, base, 'span durations', late);

const heatmap = async (gte: number, ms: number, system: string, query = '') => {
  const res = await get('duration-heatmap', { time_gte: iso(gte), time_lt: iso(gte + ms), 'system[]': system, query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return DurationHeatmapResponse.parse(res.body).heatmap;
};
const total = (h: DurationHeatmapResponse['heatmap']) => h.data.reduce((s, [, , n]) => s + n, 0);

/** The heatmap as served and from the spans (a filter every span passes), the same in every field. */
async function same(gte: number, ms: number) {
  for (const system of ['all', 'spans:all', 'http:all', 'events:all']) {
    const rows = await heatmap(gte, ms, system);
    const spans = await heatmap(gte, ms, system, 'where .duration >= 0');
    if (system !== 'events:all') expect([system, total(rows)]).not.toEqual([system, 0]);
    expect([system, rows]).toEqual([system, spans]);
  }
}

describe('the rows per duration bin answer the duration heatmap as the spans do', () => {
  // The fixtures' minute in the first partial window of the range, or in the last.
  const inEdge = base % FIVE ? base : base + 60_000 - 6 * HOUR;
  it.each([
    ['6 h (10-minute buckets), the fixtures in a whole window', base - 3 * HOUR - 2 * 60_000, 6 * HOUR],
    ['6 h, the fixtures in an edge window', inEdge, 6 * HOUR],
    ['24 h (30-minute buckets)', base - 12 * HOUR - 2 * 60_000, DAY],
    ['7 d (3-hour buckets)', base - 3 * DAY - 7 * 60_000, 7 * DAY],
  ])('%s', async (_label, gte, ms) => {
    await rolled();
    await same(gte, ms);
  });

  it('answers as the spans do with a span in a window the job has not closed, in the hour of rolled-up ones', async () => {
    await rolled();
    // Its hour no longer adds up to the hour rollup: the rolled-up windows of the hour are read by
    // themselves (their minute rows' counts), the open one from the spans. (When an hour began
    // since the fixtures, about one run in three, the fixtures' hour stays covered.)
    const now = Date.now();
    const t = createTestTracer('http-proto', { ...otlp(), serviceName: 'api' });
    t.tracer.startSpan('GET /open', { startTime: now - 1000 }).end(now);
    await t.shutdown();
    await same(now - DAY + 60_000, DAY);
    await same(base - 3 * HOUR - 2 * 60_000, 6 * HOUR);
  });

  it('answers as the spans do after a span came late into a rolled-up window, which the job rolls up again', async () => {
    await rolled();
    const gte = base - 12 * HOUR - 2 * 60_000;
    const count = async () => total(await heatmap(gte, DAY, 'all'));
    const before = await count();
    const t = createTestTracer('http-proto', { ...otlp(), serviceName: 'api' });
    t.tracer.startSpan('GET /late', { startTime: base + 1000 }).end(base + 3000);
    await t.shutdown();
    // Until the job rolls the window again its hour is read from the spans: the span counts at once.
    await expect.poll(count, { timeout: 20_000 }).toBe(before + 1);
    await rolled(true);
    await same(gte, DAY);
  });
});
