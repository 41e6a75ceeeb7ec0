import { formatNum, formatNumber, hasNumberFormat, toText } from '@lantern/shared';
import { formatDateTime } from './dateTime';

/** What a measurement without a value reads as (a log group's p50, a minute without spans). */
export const NO_VALUE = '–';

/**
 * A measured value in its unit; "–" when there is none (null, or NaN/±Inf), never a made-up 0.
 * For metric columns and chart values; attribute values keep `formatUnit`'s `<missing>`.
 */
export function formatMetric(value: number | null | undefined, unit: string | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? formatUnit(value, unit) : NO_VALUE;
}

/**
 * A `date` value: Unix seconds (what metrics carry, e.g. a process start time) or a date string,
 * shown as the local datetime; anything that is no date keeps its text.
 */
export function formatDateValue(value: number | string): string {
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : formatDateTime(date);
}

/**
 * The formatter of a column or series unit (every one of `UNITS`: `nanoseconds`, `utilization`,
 * `percents`, `bytes`, `date`, ...).
 */
export function formatUnit(value: unknown, unit: string | undefined): string {
  if (value === undefined || value === null) return '<missing>';
  if (value === '') return '<empty>';
  if (unit === 'date' && (typeof value === 'number' || typeof value === 'string')) return formatDateValue(value);
  if (typeof value !== 'number') return Array.isArray(value) ? value.join(', ') : toText(value);
  return formatNumber(value, unit);
}

const TICK_SCALES: [string, number][] = [
  ['b', 1e9],
  ['m', 1e6],
  ['k', 1e3],
];

/** A plain number as it is, to 6 significant digits, scaled to k/m/b ("0.0015", "1.025k"). */
function exactNum(value: number): string {
  const abs = Math.abs(value);
  for (const [suffix, factor] of TICK_SCALES) if (abs >= factor) return `${+(value / factor).toPrecision(6)}${suffix}`;
  return String(+value.toPrecision(6));
}

/**
 * A value axis's tick label. Ticks are round steps, but the magnitude rule (3 decimals below 0.1)
 * rounds close ones to one label: 0.0015, 0.002 and 0.0025 all read "0.002". A plain number whose
 * rule-rounded label is not the tick itself reads exactly ("0.0015"); units with their own format
 * (durations, bytes, percentages) keep it.
 */
export function formatAxisTick(value: number, unit: string): string {
  if (!Number.isFinite(value) || (unit && (hasNumberFormat(unit) || unit === 'date'))) return formatUnit(value, unit);
  const shown = formatNum(value);
  const scale = TICK_SCALES.find(([suffix]) => shown.endsWith(suffix));
  const read = scale ? Number(shown.slice(0, -1)) * scale[1] : Number(shown);
  return Math.abs(read - value) <= 1e-9 * Math.max(1, Math.abs(value)) ? shown : exactNum(value);
}
