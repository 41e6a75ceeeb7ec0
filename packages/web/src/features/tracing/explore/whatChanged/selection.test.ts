import { describe, expect, it } from 'vitest';
import { parseQuery } from '@lantern/shared';
import { durationLiteral, heatmapSelection, valueFilter, valueLabel } from './selection';

describe('what changed selections', () => {
  it('writes durations in the largest whole unit', () => {
    expect(durationLiteral(500e6)).toBe('500ms');
    expect(durationLiteral(2e9)).toBe('2s');
    expect(durationLiteral(5000)).toBe('5us');
    expect(durationLiteral(1)).toBe('1ns');
  });

  it('turns a rectangle of heatmap cells into a where part the parser reads', () => {
    const h = {
      xAxis: ['2026-01-01T10:00:00Z', '2026-01-01T10:01:00Z', '2026-01-01T10:02:00Z'],
      yAxis: [
        [20e6, 50e6],
        [50e6, 100e6],
        [100e6, 200e6],
      ] as [number, number][],
      data: [],
    };
    const s = heatmapSelection(h, [2, 1], [1, 2]);
    expect(s).toBe(
      'where .time >= "2026-01-01T10:01:00.000Z" and .time < "2026-01-01T10:03:00.000Z" and .duration >= 50ms and .duration < 200ms',
    );
    expect(parseQuery(s)[0].error).toBeUndefined();
  });

  it('filters on a value, or on a numeric bin with the last one closed', () => {
    expect(valueFilter('feature.flag', { value: 'new-cart', selectionPct: 90, baselinePct: 5 }, false)).toBe(
      'where feature.flag = "new-cart"',
    );
    const bin = { value: '100 .. 200', range: [100, 200] as [number, number], selectionPct: 1, baselinePct: 2 };
    expect(valueFilter('payload.bytes', bin, false)).toBe('where payload.bytes >= 100 and payload.bytes < 200');
    expect(valueFilter('payload.bytes', bin, true)).toBe('where payload.bytes >= 100 and payload.bytes <= 200');
    const d = { value: '', range: [20e6, 5e8] as [number, number], selectionPct: 1, baselinePct: 2 };
    expect(valueFilter('.duration', d, false)).toBe('where .duration >= 20ms and .duration < 500ms');
    expect(valueLabel('.duration', d)).toBe('20ms – 500ms');
    expect(valueLabel('.duration', { value: '20000000', selectionPct: 1, baselinePct: 2 })).toBe('20ms');
    for (const f of [valueFilter('payload.bytes', bin, true), valueFilter('.duration', d, false)])
      expect(parseQuery(f)[0].error).toBeUndefined();
  });
});
