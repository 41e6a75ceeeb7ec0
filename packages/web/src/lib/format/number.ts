import { formatDateTime } from './dateTime';
import { formatDuration, formatMagnitude } from './duration';
import { toText } from '@lantern/shared';

/**
 * Numbers, percentages and bytes for tables, legends and chart axes. Every value uses the spec's
 * magnitude rule (3 decimals below 0.1, 2 below 1, 1 below 10, else 0) after scaling to k/m/b,
 * KB/MB/GB/TB, so one glance reads the same everywhere. Pure and table-tested.
 */
const SCALES = [
  { suffix: 'b', factor: 1e9 },
  { suffix: 'm', factor: 1e6 },
  { suffix: 'k', factor: 1e3 },
] as const;

/** 0.0123 -> "0.012", 12.34 -> "12", 1500 -> "1.5k", 2_000_000 -> "2.0m". */
export function formatNum(value: number): string {
  if (!Number.isFinite(value) || value === 0) return '0';
  const abs = Math.abs(value);
  // 0.9995: a value that would round up to 1000 of the smaller scale moves to the next one (999_960 -> "1.0m").
  for (const { suffix, factor } of SCALES)
    if (abs >= factor * 0.9995) return `${formatMagnitude(value / factor)}${suffix}`;
  return formatMagnitude(value);
}

/** Counts (facet values, rows): whole numbers as they are below 1000 ("7", not "7.0"), then k/m/b. */
export function formatCount(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1000) return String(value);
  return formatNum(value);
}

/** `value` is already 0..100. Below 0.0001 shows "0%". */
export function formatPercents(value: number): string {
  if (!Number.isFinite(value) || Math.abs(value) < 1e-4) return '0%';
  return `${formatMagnitude(value)}%`;
}

/** `value` is a 0..1 fraction (error rates): 0.125 -> "12.5%"... with the magnitude rule -> "13%". */
export function formatUtilization(value: number): string {
  return formatPercents(value * 100);
}

const BYTE_UNITS = ['KB', 'MB', 'GB', 'TB', 'PB'] as const;

export function formatBytes(value: number): string {
  if (!Number.isFinite(value) || value === 0) return '0';
  let scaled = value;
  let unit = '';
  for (const next of BYTE_UNITS) {
    if (Math.abs(scaled) < 1024 * 0.9995) break;
    scaled /= 1024;
    unit = next;
  }
  return `${formatMagnitude(scaled)}${unit ? ` ${unit}` : ''}`;
}

const DURATION_SCALE: Record<string, number> = { nanoseconds: 1, microseconds: 1e3, milliseconds: 1e6, seconds: 1e9 };

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
  if (unit && DURATION_SCALE[unit] !== undefined) return formatDuration(value * DURATION_SCALE[unit]);
  switch (unit) {
    case 'utilization':
      return formatUtilization(value);
    case 'percents':
      return formatPercents(value);
    case 'bytes':
      return formatBytes(value);
    case 'kilobytes':
      return formatBytes(value * 1024);
    case 'megabytes':
      return formatBytes(value * 1024 ** 2);
    case 'gigabytes':
      return formatBytes(value * 1024 ** 3);
    case 'terabytes':
      return formatBytes(value * 1024 ** 4);
    default:
      return formatNum(value);
  }
}
