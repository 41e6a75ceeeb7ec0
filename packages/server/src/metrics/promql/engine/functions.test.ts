import { describe, expect, it } from 'vitest';
import { instantQuery } from './index';
import { MemorySource, series } from './memorySource';
import { T0, instant, min, num, options, source } from './queryFixture';

const X = '{room="x"}';

describe('instant vector functions', () => {
  it.each([
    ['abs(-temp{room="x"})', { [X]: '29' }],
    ['ceil(temp{room="x"} / 3)', { [X]: '10' }],
    ['floor(temp{room="x"} / 3)', { [X]: '9' }],
    ['round(temp{room="x"} / 3)', { [X]: '10' }],
    ['round(temp{room="x"} / 3, 0.5)', { [X]: '9.5' }],
    ['sqrt(vector(16))', { '{}': '4' }],
    ['exp(vector(0))', { '{}': '1' }],
    ['ln(vector(1))', { '{}': '0' }],
    ['log2(vector(8))', { '{}': '3' }],
    ['log10(vector(100))', { '{}': '2' }],
    ['sgn(vector(-3))', { '{}': '-1' }],
    ['cos(vector(0))', { '{}': '1' }],
    ['deg(vector(pi()))', { '{}': '180' }],
    ['clamp(temp, 15, 25)', { [X]: '25', '{room="y"}': '15' }],
    ['clamp(temp, 5, 1)', {}],
    ['clamp_min(temp, 20)', { [X]: '29', '{room="y"}': '20' }],
    ['clamp_max(temp, 20)', { [X]: '20', '{room="y"}': '13' }],
    ['scalar(temp{room="x"})', { '': '29' }],
    ['scalar(temp)', { '': 'NaN' }],
    ['vector(1)', { '{}': '1' }],
    ['time()', { '': String(min(10) / 1000) }],
    ['absent(nope{job="x", a=~"b"})', { '{job="x"}': '1' }],
    ['absent(temp)', {}],
    ['absent_over_time(nope{a="b"}[5m])', { '{a="b"}': '1' }],
    ['absent_over_time(temp[5m])', {}],
  ])('%s', async (q, want) => expect(await instant(q)).toEqual(want));

  it('timestamp of a selector is the end of the minute of its point', async () => {
    expect(await instant('timestamp(temp{room="x"})', min(9.5))).toEqual({ [X]: String(min(9) / 1000) });
    expect(await instant('timestamp(vector(1))', min(9.5))).toEqual({ '{}': String(min(9.5) / 1000) });
  });

  it('date functions, of the evaluation time or of the values', async () => {
    const at = Date.UTC(2026, 0, 1, 10, 30) / 1000; // a Thursday
    const cases: [string, string][] = [
      ['hour', '10'],
      ['minute', '30'],
      ['day_of_week', '4'],
      ['day_of_month', '1'],
      ['day_of_year', '1'],
      ['days_in_month', '31'],
      ['month', '1'],
      ['year', '2026'],
    ];
    for (const [f, v] of cases) expect(await instant(`${f}(vector(${at}))`)).toEqual({ '{}': v });
    expect(await instant('hour()')).toEqual({ '{}': '10' });
    expect(await instant('days_in_month(vector(1709251200))')).toEqual({ '{}': '31' }); // 2024-03-01
    expect(await instant('days_in_month(vector(1706745600))')).toEqual({ '{}': '29' }); // 2024-02-01
  });

  it('sort and sort_desc order an instant result by value', async () => {
    const asc = await instantQuery(source(), 'sort(temp)', min(10), options());
    const desc = await instantQuery(source(), 'sort_desc(temp)', min(10), options());
    if (asc.resultType !== 'vector' || desc.resultType !== 'vector') throw new Error('not vectors');
    expect(asc.result.map((r) => r.metric.room)).toEqual(['y', 'x']);
    expect(desc.result.map((r) => r.metric.room)).toEqual(['x', 'y']);
    const byLabel = await instantQuery(source(), 'sort_by_label_desc(temp, "room")', min(10), options());
    if (byLabel.resultType !== 'vector') throw new Error('not a vector');
    expect(byLabel.result.map((r) => r.metric.room)).toEqual(['y', 'x']);
  });

  it('label_replace and label_join keep the name', async () => {
    expect(await instant('label_replace(temp{room="x"}, "r", "$1-${1}", "room", "(.*)")')).toEqual({
      '{__name__="temp", r="x-x", room="x"}': '29',
    });
    expect(await instant('label_replace(temp{room="x"}, "r", "$1", "room", "nomatch")')).toEqual({
      '{__name__="temp", room="x"}': '29',
    });
    expect(await instant('label_replace(temp{room="x"}, "r", "$name", "room", "(?P<name>x)")')).toEqual({
      '{__name__="temp", r="x", room="x"}': '29',
    });
    expect(await instant('label_join(team_info{job="api"}, "jt", "/", "job", "team")')).toEqual({
      '{__name__="team_info", job="api", jt="api/core", team="core"}': '1',
    });
    await expect(instant('label_replace(temp, "r", "", "room", "(")')).rejects.toMatchObject({
      errorType: 'execution',
    });
  });
});

describe('range vector functions', () => {
  it.each([
    ['avg_over_time(temp{room="x"}[5m])', '27'],
    ['sum_over_time(temp{room="x"}[5m])', '135'],
    ['count_over_time(temp{room="x"}[5m])', '5'],
    ['min_over_time(temp{room="x"}[5m])', '25'],
    ['max_over_time(temp{room="x"}[5m])', '29'],
    ['present_over_time(temp{room="x"}[5m])', '1'],
    ['stdvar_over_time(temp{room="x"}[5m])', '2'],
    ['quantile_over_time(0.5, temp{room="x"}[5m])', '27'],
    ['quantile_over_time(0.25, temp{room="x"}[5m])', '26'],
    ['mad_over_time(temp{room="x"}[5m])', '1'],
    ['first_over_time(temp{room="x"}[5m])', '25'],
    ['ts_of_max_over_time(temp{room="x"}[5m])', String(min(10) / 1000)],
  ])('%s = %s', async (q, v) => {
    const r = await instant(q);
    expect(Object.values(r)).toEqual([v]);
    expect(Object.keys(r)[0].includes('__name__')).toBe(q.startsWith('first_over_time'));
  });

  it('stddev_over_time', async () =>
    expect(num(await instant('stddev_over_time(temp{room="x"}[5m])'), X)).toBeCloseTo(Math.SQRT2, 12));

  it('last_over_time keeps the name', async () => {
    expect(await instant('last_over_time(temp{room="x"}[5m])')).toEqual({ '{__name__="temp", room="x"}': '29' });
  });
});

describe('histogram_quantile', () => {
  it('interpolates in the bucket holding the rank', async () => {
    // Per minute: le=0.1: 1, 0.5: 3, 1: 4, +Inf: 5. Rank 2.5 falls in (0.1, 0.5]: 0.1 + 0.4 * 1.5/2.
    expect(
      num(await instant('histogram_quantile(0.5, rate(lat_bucket{instance="a"}[5m]))'), '{instance="a", job="api"}'),
    ).toBeCloseTo(0.4, 12);
    // Rank in the +Inf bucket: the highest finite bound.
    expect(await instant('histogram_quantile(0.99, sum by (le) (rate(lat_bucket[5m])))')).toEqual({ '{}': '1' });
    expect(await instant('histogram_quantile(-1, sum by (le) (rate(lat_bucket[5m])))')).toEqual({ '{}': '-Inf' });
  });

  it('histogram_fraction interpolates inside buckets', async () => {
    // Per minute: le=0.1: 1, 0.5: 3, 1: 4, +Inf: 5. Up to 0.3: 1 + 2 * 0.5 = 2 of 5.
    const r = await instant('histogram_fraction(0, 0.3, sum by (le) (rate(lat_bucket[5m])))');
    expect(num(r, '{}')).toBeCloseTo(0.4, 12);
    expect(await instant('histogram_fraction(0, +Inf, sum by (le) (rate(lat_bucket[5m])))')).toEqual({ '{}': '1' });
  });

  it('forces bucket counts to be monotonic and needs a +Inf bucket', async () => {
    const bucket = (le: string, v: number) => series({ __name__: 'h_bucket', le }, 'gauge', T0, [v]);
    const src = new MemorySource([bucket('1', 2), bucket('2', 6), bucket('3', 4), bucket('+Inf', 8)]);
    // Counts 2 6 4 8 are read as 2 6 6 8; rank 5.6 lies in (1, 2]: 1 + 3.6/4.
    const r = await instant('histogram_quantile(0.7, h_bucket)', min(1), {}, src);
    expect(num(r, '{}')).toBeCloseTo(1.9, 12);
    const two = new MemorySource([
      bucket('1', 2),
      bucket('+Inf', 8),
      { ...bucket('+Inf', 8), labels: { __name__: 'g_bucket', le: '+Inf' } },
    ]);
    await expect(instant('histogram_quantile(0.7, {__name__=~".+_bucket"})', min(1), {}, two)).rejects.toThrow(
      'vector cannot contain metrics with the same labelset',
    );
    const noInf = new MemorySource([bucket('1', 2), bucket('2', 6)]);
    expect(await instant('histogram_quantile(0.7, h_bucket)', min(1), {}, noInf)).toEqual({ '{}': 'NaN' });
  });
});
