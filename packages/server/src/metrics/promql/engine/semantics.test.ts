import { describe, expect, it } from 'vitest';
import { PromQLError, SeriesLimitError, instantQuery, rangeQuery, type QueryData } from './index';
import { MemorySource, series } from './memorySource';
import { DATA, T0, instant, min, num, options, ranged, source } from './queryFixture';

const A = '{__name__="http_requests_total", instance="a", job="api"}';
const RA = '{instance="a", job="api"}';
const RB = '{instance="b", job="api"}';
const RC = '{instance="c", job="web"}';

describe('minute semantics', () => {
  it('a raw counter shows base + running sum of its deltas', async () => {
    expect((await instant('http_requests_total{instance="a"}'))[A]).toBe('155');
    expect((await instant('http_requests_total{instance="a"}', min(3)))[A]).toBe('106');
  });

  it('rate and increase sum the deltas of minutes ending in (t-w, t], without extrapolation', async () => {
    const inc = await instant('increase(http_requests_total[5m])');
    expect(inc).toEqual({ [RA]: '40', [RB]: '10', [RC]: '12' });
    const rate = await instant('rate(http_requests_total[5m])');
    expect(num(rate, RA)).toBeCloseTo(40 / 300, 12);
    expect(num(rate, RC)).toBeCloseTo(0.04, 12);
  });

  it('widens windows below a minute to the one minute ending in them', async () => {
    expect(await instant('rate(http_requests_total{instance="a"}[15s])')).toEqual({ [RA]: String(10 / 60) });
    expect(await instant('increase(http_requests_total{instance="a"}[30s])')).toEqual({ [RA]: '10' });
  });

  it('irate and idelta use the last minute', async () => {
    expect(await instant('irate(http_requests_total{instance="a"}[5m])')).toEqual({ [RA]: String(10 / 60) });
    expect(await instant('idelta(http_requests_total{instance="a"}[5m])')).toEqual({ [RA]: '10' });
  });

  it('stamps a point with the end of its minute', async () => {
    // At 10:09:30 the latest complete minute is 10:08-10:09 (value 28).
    expect(await instant('temp{room="x"}', min(9.5))).toEqual({ '{__name__="temp", room="x"}': '28' });
    expect(await instant('temp{room="x"}', min(0.5))).toEqual({});
    expect(await instant('temp{room="x"}[2m]', min(10))).toEqual({
      '{__name__="temp", room="x"}': `${min(9) / 1000}:28 ${min(10) / 1000}:29`,
    });
  });

  it('a gauge holds for the lookback (5 minutes by default, configurable)', async () => {
    expect(await instant('temp{room="x"}', min(14.5))).toEqual({ '{__name__="temp", room="x"}': '29' });
    expect(await instant('temp{room="x"}', min(15))).toEqual({});
    expect(await instant('temp{room="x"}', min(11.5), { lookbackMs: 60_000 })).toEqual({});
  });

  it('counts resets as 0 and changes as minutes with a non-zero delta', async () => {
    expect(await instant('resets(http_requests_total{job="web"}[10m])')).toEqual({ [RC]: '0' });
    expect(await instant('changes(http_requests_total{job="web"}[10m])')).toEqual({ [RC]: '4' });
    expect(await instant('changes(temp{room="x"}[5m])')).toEqual({ '{room="x"}': '4' });
    // 10 8 12 7 15 9 11 6 14 13: five falls.
    expect(await instant('resets(temp{room="y"}[10m])')).toEqual({ '{room="y"}': '5' });
  });

  it('*_over_time of a counter uses its running totals', async () => {
    expect(await instant('max_over_time(http_requests_total{instance="a"}[3m])')).toEqual({ [RA]: '155' });
    expect(await instant('min_over_time(http_requests_total{instance="a"}[3m])')).toEqual({ [RA]: '136' });
  });

  it('delta, deriv and predict_linear of a gauge', async () => {
    // delta compares with the point at the window's start (10:05, value 24).
    expect(await instant('delta(temp{room="x"}[5m])')).toEqual({ '{room="x"}': '5' });
    expect(num(await instant('deriv(temp{room="x"}[5m])'), '{room="x"}')).toBeCloseTo(1 / 60, 12);
    expect(num(await instant('predict_linear(temp{room="x"}[5m], 120)'), '{room="x"}')).toBeCloseTo(31, 9);
  });
});

describe('offset, @ and subqueries', () => {
  it('offset moves back, a negative offset forward', async () => {
    expect(await instant('temp{room="x"} offset 2m')).toEqual({ '{__name__="temp", room="x"}': '27' });
    expect(await instant('temp{room="x"} offset -2m', min(8))).toEqual({ '{__name__="temp", room="x"}': '29' });
    expect(await instant('increase(http_requests_total{instance="a"}[2m] offset 5m)')).toEqual({ [RA]: '9' });
  });

  it('@ pins the evaluation time; start() and end() are the range query bounds', async () => {
    expect(await instant(`temp{room="x"} @ ${min(5) / 1000}`, min(9))).toEqual({ '{__name__="temp", room="x"}': '24' });
    const r = await ranged('temp{room="x"} @ end()', min(6), min(8), 60_000);
    expect(r['{__name__="temp", room="x"}']).toBe([6, 7, 8].map((m) => `${min(m) / 1000}:27`).join(' '));
    const s = await ranged('temp{room="x"} @ start() offset 1m', min(6), min(8), 60_000);
    expect(s['{__name__="temp", room="x"}']).toBe([6, 7, 8].map((m) => `${min(m) / 1000}:24`).join(' '));
  });

  it('subqueries step at absolute multiples of their step', async () => {
    expect(await instant('max_over_time(temp{room="y"}[5m:1m])')).toEqual({ '{room="y"}': '14' });
    // Steps at 10:06, 10:08, 10:10 (multiples of 2m): 9, 6, 13.
    expect(await instant('max_over_time(temp{room="y"}[5m:2m])')).toEqual({ '{room="y"}': '13' });
    expect(await instant('count_over_time(temp{room="y"}[5m:2m])')).toEqual({ '{room="y"}': '3' });
    expect(await instant('max_over_time(rate(http_requests_total{instance="a"}[1m])[5m:1m] offset 1m)')).toEqual({
      [RA]: String(9 / 60),
    });
  });

  it('an instant query of a subquery returns its points', async () => {
    expect(await instant('temp{room="x"}[2m:1m]')).toEqual({
      '{__name__="temp", room="x"}': `${min(9) / 1000}:28 ${min(10) / 1000}:29`,
    });
  });
});

function flattenMatrix(d: QueryData): Record<string, number> {
  if (d.resultType !== 'matrix') throw new Error('not a matrix');
  return Object.fromEntries(
    d.result.flatMap((r) => r.values.map((v) => [`${JSON.stringify(r.metric)}@${v[0]}`, Number(v[1])])),
  );
}
const closeTo = (v: number): unknown => expect.closeTo(v, 12);

describe('push-down', () => {
  const queries = [
    'sum by (job) (rate(http_requests_total[5m]))',
    'sum without (instance) (increase(http_requests_total[3m]))',
    'sum(rate(http_requests_total[2m] offset 1m))',
    'histogram_quantile(0.9, sum by (le) (rate(lat_bucket[5m])))',
    'histogram_quantile(0.5, sum by (le, job) (rate(lat_bucket[5m])))',
  ];
  it.each(queries)('%s answers the same with and without', async (q) => {
    const pushed = source();
    const plain = source({ pushDown: false });
    const a = await rangeQuery(pushed, q, min(3), min(10), 60_000, options());
    const b = await rangeQuery(plain, q, min(3), min(10), 60_000, options());
    expect(pushed.requests[0].sumBy).toBeDefined();
    expect(a.result.length).toBeGreaterThan(0);
    // The same series and steps; values equal up to the order of floating-point additions.
    expect(flattenMatrix(a)).toEqual(
      Object.fromEntries(Object.entries(flattenMatrix(b)).map(([k, v]) => [k, closeTo(v)])),
    );
  });

  it('asks the source for group sums with the grouping and no base', async () => {
    const src = source();
    await instantQuery(src, 'sum by (job) (rate(http_requests_total[5m]))', min(10), options());
    expect(src.requests).toEqual([
      {
        matchers: [{ name: '__name__', type: '=', value: 'http_requests_total' }],
        startMs: min(4),
        endMs: min(10),
        needBase: false,
        sumBy: { without: false, labels: ['job'] },
      },
    ]);
  });

  it('does not push down other shapes', async () => {
    const src = source();
    await instantQuery(
      src,
      'max by (job) (rate(http_requests_total[5m])) + sum(http_requests_total)',
      min(10),
      options(),
    );
    expect(src.requests.every((r) => r.sumBy === undefined)).toBe(true);
    expect(src.requests.map((r) => r.needBase)).toEqual([false, true]);
  });

  it('falls back when the source did not sum (gauges)', async () => {
    // Gauges under rate: rises from the point before the window, a fall counting as a reset.
    // y: 15 | 9 11 6 14 13 -> 9 + 2 + 6 + 8 + 13 = 38.
    const r = await instant('sum by (room) (rate(temp[5m]))');
    expect(num(r, '{room="x"}')).toBeCloseTo(5 / 300, 12);
    expect(num(r, '{room="y"}')).toBeCloseTo(38 / 300, 12);
  });
});

describe('range queries', () => {
  it('fetches each selector once for the whole range', async () => {
    const src = source();
    await rangeQuery(
      src,
      'rate(http_requests_total[5m]) / on(job) group_left sum by (job) (rate(http_requests_total[5m]))',
      min(0),
      min(10),
      60_000,
      options(),
    );
    expect(src.requests).toHaveLength(2);
  });

  it('returns a sorted matrix, omitting steps without a value', async () => {
    const r = await rangeQuery(source(), 'temp > 25', min(5), min(10), 120_000, options());
    expect(r).toEqual({
      resultType: 'matrix',
      result: [
        {
          metric: { __name__: 'temp', room: 'x' },
          values: [
            [min(7) / 1000, '26'],
            [min(9) / 1000, '28'],
          ],
        },
      ],
    });
  });

  it('answers a scalar expression with one series of empty labels', async () => {
    const r = await rangeQuery(source(), 'time() - 1', min(0), min(1), 30_000, options());
    expect(r.result).toEqual([
      { metric: {}, values: [0, 0.5, 1].map((m) => [min(m) / 1000, String(min(m) / 1000 - 1)]) },
    ]);
  });

  it('refuses range vectors and strings as Prometheus does', async () => {
    await expect(rangeQuery(source(), 'temp[5m]', min(0), min(1), 60_000, options())).rejects.toThrow(
      'invalid expression type "range vector" for range query, must be Scalar or instant Vector',
    );
    await expect(rangeQuery(source(), '"a"', min(0), min(1), 60_000, options())).rejects.toMatchObject({
      errorType: 'bad_data',
    });
    await expect(rangeQuery(source(), 'temp', min(0), min(1), 0, options())).rejects.toMatchObject({
      errorType: 'bad_data',
    });
  });

  it('steps below a minute still answer at minute resolution', async () => {
    const r = await ranged('rate(http_requests_total{instance="a"}[20s])', min(9), min(10), 30_000);
    expect(r[RA]).toBe(`${min(9) / 1000}:${9 / 60} ${min(9.5) / 1000}:${9 / 60} ${min(10) / 1000}:${10 / 60}`);
  });
});

describe('limits', () => {
  it('an aborted signal gives a timeout', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(instantQuery(source(), 'temp', min(10), { signal: ac.signal })).rejects.toMatchObject({
      errorType: 'timeout',
    });
  });

  it('a deadline passing during the source call gives a timeout', async () => {
    const ac = new AbortController();
    const slow = {
      select: async () => {
        ac.abort();
        return { series: [], pushedDown: false };
      },
    };
    const err = await instantQuery(slow, 'temp', min(10), { signal: ac.signal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PromQLError);
    expect(err).toMatchObject({ errorType: 'timeout' });
  });

  it('the series limit: from the source, and counted by the engine', async () => {
    await expect(instant('temp', min(10), {}, source({ maxSeries: 1 }))).rejects.toBeInstanceOf(SeriesLimitError);
    await expect(instant('http_requests_total', min(10), { maxSeries: 2 })).rejects.toBeInstanceOf(SeriesLimitError);
    await expect(instant('vector(1) + on() group_left count(temp)', min(10), { maxSeries: 2 })).resolves.toBeDefined();
  });

  it('source failures become execution errors', async () => {
    const broken = new MemorySource([]);
    broken.select = () => Promise.reject(new Error('disk on fire'));
    await expect(instantQuery(broken, 'temp', min(10), options())).rejects.toMatchObject({
      errorType: 'execution',
      message: 'error selecting series: disk on fire',
    });
  });
});

it('fixture sanity', () => {
  expect(DATA.length).toBeGreaterThan(10);
  expect(series({}, 'gauge', T0, [1]).times[0]).toBe(T0);
});
