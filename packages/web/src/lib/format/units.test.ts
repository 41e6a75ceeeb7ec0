import { describe, expect, it } from 'vitest';
import { formatUnit } from './number';
import { UNITS, type Unit } from './units';

/** Local 2023-06-15 14:30 as Unix seconds: `date` values are seconds (what metrics carry). */
const JUN_15 = new Date(2023, 5, 15, 14, 30).getTime() / 1000;

/** Every unit of spec §3 with a value and how it reads. */
const TABLE: Record<Unit, [value: number, text: string][]> = {
  '': [
    [1_234_567, '1.2m'],
    [12.34, '12'],
  ],
  percents: [
    [12.5, '13%'],
    [0.05, '0.050%'],
  ],
  utilization: [
    [0.125, '13%'],
    [1, '100%'],
  ],
  nanoseconds: [
    [1_500_000, '1.5ms'],
    [250, '0.25µs'],
  ],
  microseconds: [
    [1_500, '1.5ms'],
    [12, '12µs'],
  ],
  milliseconds: [
    [250, '250ms'],
    [1_500, '1.5s'],
  ],
  seconds: [
    [90, '90s'],
    [0.5, '500ms'],
  ],
  bytes: [
    [2048, '2 KB'],
    [5 * 1024 ** 3, '5 GB'],
  ],
  kilobytes: [
    [1536, '1.5 MB'],
    [2, '2 KB'],
  ],
  megabytes: [
    [1536, '1.5 GB'],
    [512, '512 MB'],
  ],
  gigabytes: [
    [2, '2 GB'],
    [3072, '3 TB'],
  ],
  terabytes: [
    [1.5, '1.5 TB'],
    [2048, '2 PB'],
  ],
  date: [
    [JUN_15, 'Jun 15 2023 14:30'],
    [JUN_15 + 86_400, 'Jun 16 2023 14:30'],
  ],
};

describe('formatUnit over every unit', () => {
  it('the table covers exactly the units of spec §3', () => {
    expect(Object.keys(TABLE).sort()).toEqual([...UNITS].sort());
  });

  it.each(UNITS.flatMap((unit) => TABLE[unit].map(([value, text]) => [unit || 'none', value, text] as const)))(
    '%s %d -> %s',
    (unit, value, text) => {
      expect(formatUnit(value, unit === 'none' ? '' : unit)).toBe(text);
    },
  );

  it('no unit prints its value raw', () => {
    for (const unit of UNITS) expect(formatUnit(1_700_000_000, unit), unit || 'none').not.toBe('1700000000');
  });

  it('"none" reads like no unit', () => {
    expect(formatUnit(1_234_567, 'none')).toBe(formatUnit(1_234_567, ''));
  });

  it('dates: ISO strings too; what is no date keeps its text; missing stays missing', () => {
    expect(formatUnit(new Date(2023, 5, 15, 14, 30).toISOString(), 'date')).toBe('Jun 15 2023 14:30');
    expect(formatUnit('soon', 'date')).toBe('soon');
    expect(formatUnit(undefined, 'date')).toBe('<missing>');
  });
});
