import { describe, expect, it } from 'vitest';
import { alignedRange, matrixToChart, promqlStep, seriesName, stepText } from './promqlResult';

const H = 3_600_000;

describe('promqlStep', () => {
  it('is a minute up to 12 hours, then the smallest whole-minute step within 720 points', () => {
    expect(promqlStep(H)).toBe(60);
    expect(promqlStep(12 * H)).toBe(60);
    expect(promqlStep(24 * H)).toBe(120);
    expect(promqlStep(7 * 24 * H)).toBe(900);
    expect(promqlStep(90 * 24 * H)).toBe(10800);
    expect(promqlStep(91 * 24 * H)).toBe(21600);
  });
});

describe('alignedRange', () => {
  it('puts start and end on multiples of the step inside the range', () => {
    const gte = Date.parse('2026-12-06T10:00:30Z');
    expect(alignedRange(gte, gte + H)).toEqual({
      start: Date.parse('2026-12-06T10:01:00Z') / 1000,
      end: Date.parse('2026-12-06T11:00:00Z') / 1000,
      step: 60,
    });
  });
});

describe('seriesName', () => {
  it('prints the name and sorted labels as Prometheus does', () => {
    expect(seriesName({ __name__: 'up', job: 'api', instance: 'a:1' })).toBe('up{instance="a:1", job="api"}');
    expect(seriesName({ job: 'api' })).toBe('{job="api"}');
    expect(seriesName({ __name__: 'up' })).toBe('up');
    expect(seriesName({})).toBe('{}');
  });
});

describe('matrixToChart', () => {
  it('places points on the grid, with gaps for missing and non-finite values', () => {
    const chart = matrixToChart(
      [
        {
          metric: { job: 'a' },
          values: [
            [120, '1.5'],
            [240, 'NaN'],
          ],
        },
        {
          metric: { job: 'b' },
          values: [
            [60, '+Inf'],
            [180, '-2'],
          ],
        },
      ],
      { start: 60, end: 240, step: 60 },
    );
    expect(chart.time).toEqual([60, 120, 180, 240].map((s) => new Date(s * 1000).toISOString()));
    expect(chart.series).toEqual([
      { name: '{job="a"}', unit: '', values: [null, 1.5, null, null] },
      { name: '{job="b"}', unit: '', values: [null, null, -2, null] },
    ]);
  });
});

describe('stepText', () => {
  it('writes a step as a PromQL duration', () => {
    expect([60, 900, 7200, 86400, 90].map(stepText)).toEqual(['1m', '15m', '2h', '1d', '90s']);
  });
});
