import { describe, expect, it } from 'vitest';
import { instant, min, ranged } from './queryFixture';

const X = '{__name__="temp", room="x"}';
const Y = '{__name__="temp", room="y"}';

describe('aggregations', () => {
  it.each([
    ['sum(temp)', { '{}': '42' }],
    ['avg(temp)', { '{}': '21' }],
    ['min(temp)', { '{}': '13' }],
    ['max(temp)', { '{}': '29' }],
    ['count(temp)', { '{}': '2' }],
    ['group(temp)', { '{}': '1' }],
    ['stddev(temp)', { '{}': '8' }],
    ['stdvar(temp)', { '{}': '64' }],
    ['sum by (room) (temp)', { '{room="x"}': '29', '{room="y"}': '13' }],
    ['sum without (instance) (http_requests_total)', { '{job="api"}': '175', '{job="web"}': '24' }],
    ['sum(http_requests_total) by (job)', { '{job="api"}': '175', '{job="web"}': '24' }],
    ['count by (nope) (temp)', { '{}': '2' }],
    ['quantile(0.5, temp)', { '{}': '21' }],
    ['quantile(0.25, http_requests_total)', { '{}': '22' }],
    ['quantile(2, temp)', { '{}': '+Inf' }],
  ])('%s', async (q, want) => expect(await instant(q)).toEqual(want));

  it('topk and bottomk keep the series labels', async () => {
    expect(await instant('topk(1, temp)')).toEqual({ [X]: '29' });
    expect(await instant('bottomk(1, temp)')).toEqual({ [Y]: '13' });
    expect(await instant('topk by (job) (1, http_requests_total)')).toEqual({
      '{__name__="http_requests_total", instance="a", job="api"}': '155',
      '{__name__="http_requests_total", instance="c", job="web"}': '24',
    });
    expect(await instant('topk(0, temp)')).toEqual({});
  });

  it('topk picks per step in a range query', async () => {
    // y is 12 7 15 at 10:03-10:05, x - 10 is 12 13 14: ties go to neither order in particular, so start where they differ.
    const r = await ranged('topk(1, temp{room="y"} or (temp{room="x"} - 10))', min(3), min(5), 60_000);
    expect(r).toEqual({
      '{__name__="temp", room="y"}': `${min(3) / 1000}:12 ${min(5) / 1000}:15`,
      '{room="x"}': `${min(4) / 1000}:13`,
    });
  });

  it('count_values counts each value, by group', async () => {
    expect(await instant('count_values("v", team_info)')).toEqual({ '{v="1"}': '2' });
    expect(await instant('count_values by (job) ("v", team_info)')).toEqual({
      '{job="api", v="1"}': '1',
      '{job="web", v="1"}': '1',
    });
  });

  it('limitk keeps k series of each group', async () => {
    expect(Object.keys(await instant('limitk(1, temp)'))).toHaveLength(1);
    expect(Object.keys(await instant('limitk by (job) (1, http_requests_total)'))).toHaveLength(2);
  });
});
