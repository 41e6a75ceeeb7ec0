import { formatNumber, toText } from '@lantern/shared';
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
