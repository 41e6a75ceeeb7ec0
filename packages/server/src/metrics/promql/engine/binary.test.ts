import { describe, expect, it } from 'vitest';
import { instant } from './queryFixture';

const X = '{__name__="temp", room="x"}';

describe('binary operators', () => {
  it.each([
    ['2 ^ 3', '8'],
    ['7 % 3', '1'],
    ['-7 % 3', '-1'],
    ['1 / 0', '+Inf'],
    ['0 / 0', 'NaN'],
    ['1 > bool 2', '0'],
    ['2 * 3 + 4', '10'],
    ['2 ^ 3 ^ 2', '512'],
  ])('scalars: %s = %s', async (q, v) => expect(await instant(q)).toEqual({ '': v }));

  it('atan2', async () => expect(Number((await instant('1 atan2 1'))[''])).toBeCloseTo(Math.PI / 4, 15));

  it('vector and scalar: arithmetic drops the name, comparison filters', async () => {
    expect(await instant('temp{room="x"} * 2')).toEqual({ '{room="x"}': '58' });
    expect(await instant('2 - temp{room="x"}')).toEqual({ '{room="x"}': '-27' });
    expect(await instant('temp > 20')).toEqual({ [X]: '29' });
    expect(await instant('20 < temp')).toEqual({ [X]: '29' });
    expect(await instant('temp > bool 20')).toEqual({ '{room="x"}': '1', '{room="y"}': '0' });
  });

  it('one-to-one matching on all labels but the name, or with on/ignoring', async () => {
    expect(await instant('temp - temp')).toEqual({ '{room="x"}': '0', '{room="y"}': '0' });
    expect(await instant('temp{room="x"} + ignoring(room) temp{room="y"}')).toEqual({ '{}': '42' });
    expect(
      await instant(
        'sum by (job, instance) (http_requests_total) / on(job) group_left sum by (job) (http_requests_total)',
      ),
    ).toEqual({
      '{instance="a", job="api"}': String(155 / 175),
      '{instance="b", job="api"}': String(20 / 175),
      '{instance="c", job="web"}': '1',
    });
    expect(await instant('temp == temp')).toEqual({ [X]: '29', '{__name__="temp", room="y"}': '13' });
  });

  it('group_left copies the extra labels from the one side', async () => {
    expect(await instant('http_requests_total * on(job) group_left(team) team_info')).toEqual({
      '{instance="a", job="api", team="core"}': '155',
      '{instance="b", job="api", team="core"}': '20',
      '{instance="c", job="web", team="front"}': '24',
    });
  });

  it('group_right keeps the right side labels', async () => {
    expect(await instant('team_info * on(job) group_right http_requests_total')).toEqual({
      '{instance="a", job="api"}': '155',
      '{instance="b", job="api"}': '20',
      '{instance="c", job="web"}': '24',
    });
  });

  it('many-to-many and one-to-one duplicates are errors as in Prometheus', async () => {
    await expect(instant('http_requests_total / on(job) team_info')).rejects.toThrow(
      'multiple matches for labels: many-to-one matching must be explicit (group_left/group_right)',
    );
    await expect(instant('team_info / on(job) http_requests_total')).rejects.toThrow(
      'found duplicate series for the match group {job="api"} on the right hand-side of the operation: ' +
        '[{__name__="http_requests_total", instance="a", job="api"}, {__name__="http_requests_total", instance="b", job="api"}];' +
        'many-to-many matching not allowed: matching labels must be unique on one side',
    );
    await expect(instant('team_info / on(job) group_left http_requests_total')).rejects.toMatchObject({
      errorType: 'execution',
    });
  });

  it('set operators', async () => {
    expect(await instant('temp and temp > 20')).toEqual({ [X]: '29' });
    expect(await instant('temp unless temp > 20')).toEqual({ '{__name__="temp", room="y"}': '13' });
    expect(await instant('temp{room="x"} or temp{room="y"} or temp')).toEqual({
      [X]: '29',
      '{__name__="temp", room="y"}': '13',
    });
    expect(await instant('http_requests_total and on(job) team_info{job="web"}')).toEqual({
      '{__name__="http_requests_total", instance="c", job="web"}': '24',
    });
    expect(await instant('team_info unless ignoring(team) vector(1)')).toHaveProperty(
      '{__name__="team_info", job="api", team="core"}',
    );
  });

  it('a result with two series of the same labels is an error', async () => {
    await expect(instant('label_replace(temp, "room", "z", "", "")')).rejects.toThrow(
      'vector cannot contain metrics with the same labelset',
    );
  });
});
