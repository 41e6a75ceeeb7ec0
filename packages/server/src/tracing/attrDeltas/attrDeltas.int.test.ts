import { beforeAll, describe, expect, it } from 'vitest';
import { useLantern } from '@lantern/testkit/useLantern';
import { sendWhatChangedSpans, WHAT_CHANGED } from '@lantern/testkit/whatChangedData';
import type { AttrDeltasResponse, DurationHeatmapResponse } from '@lantern/shared';

/**
 * "What changed" (issue 38) on the real server over real OTLP: 200 spans where `feature.flag`
 * explains the slow ones (testkit whatChangedData.ts).
 */
const server = useLantern();
const base = Math.floor((Date.now() - 20 * 60_000) / 60_000) * 60_000;
const range = {
  time_gte: new Date(base - 10 * 60_000).toISOString(),
  time_lt: new Date(base + 10 * 60_000).toISOString(),
  system: 'http:all',
};

beforeAll(async () => {
  await sendWhatChangedSpans({ httpUrl: server.lantern.baseUrl, dsn: server.dsn }, base);
});

async function get(path: string, params: Record<string, string>) {
  const qs = new URLSearchParams({ ...range, ...params });
  const res = await fetch(`${server.lantern.baseUrl}/api/v1/tracing/1/${path}?${qs}`, {
    headers: { cookie: server.cookie },
  });
  return { status: res.status, body: await res.json() };
}
const deltas = async (params: Record<string, string>) => {
  const res = await get('attr-deltas', params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as AttrDeltasResponse;
};

describe('attr-deltas', () => {
  it('ranks the attribute that explains the slow spans first, with its shares', async () => {
    const a = await deltas({ query: 'where service.name = "shop"', selection: 'where .duration > 500ms' });
    expect(a.selection).toEqual({ count: WHAT_CHANGED.slow, sampled: WHAT_CHANGED.slow });
    expect(a.baseline.count).toBe(WHAT_CHANGED.spans - WHAT_CHANGED.slow);
    expect(a.attrs[0].key).toBe('feature.flag');
    expect(a.attrs[0].numeric).toBe(false);
    expect(a.attrs[0].values[0]).toEqual({ value: 'new-cart', selectionPct: 90, baselinePct: 5 });
    expect(a.attrs[0].score).toBe(85);
    // Numbers are compared by quantile bins: the slow spans' payloads are all in the bins that reach
    // 20,000, which hold at most one fast span's.
    const payload = a.attrs.find((x) => x.key === 'payload.bytes')!;
    expect(payload.numeric).toBe(true);
    const top = payload.values.filter((v) => v.range && v.range[1] >= 20_000);
    expect(top.reduce((s, v) => s + v.selectionPct, 0)).toBe(100);
    expect(top.reduce((s, v) => s + v.baselinePct, 0)).toBeCloseTo(100 / 160, 1); // one span, rounded to 0.01 points
    expect(payload.score).toBeGreaterThan(30);
  });

  it('ranks a uniform attribute low, and offers neither a unique id nor what the selection tests', async () => {
    const a = await deltas({ selection: 'where .duration > 500ms' });
    const keys = a.attrs.map((x) => x.key);
    const region = a.attrs.find((x) => x.key === 'region')!;
    expect(region.score).toBe(0);
    expect(region.values.map((v) => [v.value, v.selectionPct, v.baselinePct]).sort()).toEqual([
      ['ap', 25, 25],
      ['eu', 25, 25],
      ['sa', 25, 25],
      ['us', 25, 25],
    ]);
    expect(keys.indexOf('region')).toBeGreaterThan(keys.indexOf('feature.flag'));
    expect(keys.indexOf('region')).toBeGreaterThan(keys.indexOf('payload.bytes'));
    expect(keys).not.toContain('request.id');
    // One value on every span: nothing to tell.
    expect(keys).not.toContain('service.name');
    expect(keys).not.toContain('.duration');
    // The same on every request (the sample, when there is one, is by trace id).
    expect(await deltas({ selection: 'where .duration > 500ms' })).toEqual(a);
  });

  it('explains errors', async () => {
    const a = await deltas({ selection: 'where .status_code = "error"' });
    expect(a.selection.count).toBe(WHAT_CHANGED.errors);
    expect(a.attrs[0].key).toBe('payment.provider');
    expect(a.attrs[0].values.find((v) => v.value === 'acme')).toMatchObject({ selectionPct: 100 });
    expect(a.attrs.map((x) => x.key)).not.toContain('.status_code');
  });

  it('answers an empty list for a selection nothing matches', async () => {
    const a = await deltas({ selection: 'where .duration > 1h' });
    expect(a).toEqual({
      attrs: [],
      selection: { count: 0, sampled: 0 },
      baseline: { count: WHAT_CHANGED.spans, sampled: 0 },
    });
  });

  it('refuses a selection or query the parser refuses, with its message', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ selection: 'where .duration >' }, /^selection: /],
      [{ selection: 'group by .name' }, /selection: "group by \.name" is not a where part/],
      [{ selection: 'where .count > 5' }, /selection: filters on aggregates/],
      [{ selection: 'where .duration > 1s', query: 'where (' }, /^query: /],
      [{ selection: 'where .nope = 1' }, /^selection: .*nope/],
    ];
    for (const [params, message] of cases) {
      const res = await get('attr-deltas', params);
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_query', message: expect.stringMatching(message) as string });
    }
    const missing = await get('attr-deltas', {});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('selection') as string,
    });
  });
});

describe('duration-heatmap', () => {
  it('counts spans per time bucket and duration bin', async () => {
    const res = await get('duration-heatmap', { query: 'where service.name = "shop"' });
    expect(res.status).toBe(200);
    const { heatmap } = res.body as DurationHeatmapResponse;
    const total = heatmap.data.reduce((s, [, , n]) => s + n, 0);
    expect(total).toBe(WHAT_CHANGED.spans);
    const countIn = (ms: number) =>
      heatmap.data
        .filter(([, y]) => heatmap.yAxis[y][0] <= ms * 1e6 && ms * 1e6 < heatmap.yAxis[y][1])
        .reduce((s, [, , n]) => s + n, 0);
    expect(countIn(WHAT_CHANGED.slowMs)).toBe(WHAT_CHANGED.slow);
    expect(countIn(WHAT_CHANGED.fastMs)).toBe(WHAT_CHANGED.spans - WHAT_CHANGED.slow);
    // 1, 2, 5 x 10^n bins: 20 ms is the start of [20 ms, 50 ms); 800 ms is in [500 ms, 1 s).
    expect(heatmap.yAxis[0]).toEqual([20e6, 50e6]);
    expect(heatmap.yAxis.at(-1)).toEqual([500e6, 1e9]);
    expect(heatmap.xAxis.length).toBeGreaterThan(0);
  });
});
