import { describe, expect, it } from 'vitest';
import { formatUnit } from '../../../../lib/format/number';
import { formatGauge, gaugeColor } from './gaugeFormat';

const cols = [
  { name: 'up', unit: '', isGroup: false },
  { name: 'total', unit: '', isGroup: false },
  { name: 'mem', unit: 'bytes', isGroup: false },
];

describe('formatGauge', () => {
  it('fills ${column} placeholders with formatted values, - when missing', () => {
    expect(formatGauge('${up} out of ${total} are up', cols, { up: 3, total: 5 }, {})).toBe(
      `${formatUnit(3, '')} out of ${formatUnit(5, '')} are up`,
    );
    expect(formatGauge('${up} / ${nope}', cols, { up: 3 }, {})).toBe(`${formatUnit(3, '')} / -`);
  });
  it('shows the first value column without a template, in its unit (column map first)', () => {
    expect(formatGauge('', [cols[2]], { mem: 2048 }, {})).toMatch(/^2(\.0+)? KB$/);
    expect(formatGauge('', [cols[0]], { up: 1500 }, { up: { unit: 'milliseconds', color: '' } })).toMatch(/s$/);
  });
  it('is - with no columns', () => {
    expect(formatGauge('', [], {}, {})).toBe('-');
  });
  it('takes the colour of its first coloured column, else blue', () => {
    expect(gaugeColor({})).toBe('#1976D2');
    expect(gaugeColor({ up: { unit: '', color: '' }, total: { unit: '', color: '#D32F2F' } })).toBe('#D32F2F');
  });
});
