import { formatDuration, formatMagnitude } from './duration';

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

/**
 * 0.0123 -> "0.012", 12.34 -> "12", 1500 -> "1.5k", 2_000_000 -> "2.0m". A whole number below 1000
 * prints as it is ("2 hosts", not "2.0 hosts"), as the reference trims trailing zeros.
 */
export function formatNum(value: number): string {
  if (!Number.isFinite(value) || value === 0) return '0';
  const abs = Math.abs(value);
  const w = whole(value);
  if (w !== null && abs < 1000) return String(w);
  // 0.9995: a value that would round up to 1000 of the smaller scale moves to the next one (999_960 -> "1.0m").
  for (const { suffix, factor } of SCALES)
    if (abs >= factor * 0.9995) return `${formatMagnitude(value / factor)}${suffix}`;
  return formatMagnitude(value);
}

/**
 * A whole number, also one that floating point missed by a hair (0.05 * 100 = 5.000000000000001),
 * or null.
 */
function whole(value: number): number | null {
  const r = Math.round(value);
  return Math.abs(value - r) <= 1e-9 * Math.max(1, Math.abs(value)) ? r : null;
}

/** `value` is already 0..100. Below 0.0001 shows "0%"; a whole number without decimals ("5%"). */
export function formatPercents(value: number): string {
  if (!Number.isFinite(value) || Math.abs(value) < 1e-4) return '0%';
  return `${whole(value) ?? formatMagnitude(value)}%`;
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
  // A whole number of its unit prints as it is, as formatNum's do ("8 GB" on an axis at 8 GiB steps).
  return `${Number.isInteger(scaled) ? String(scaled) : formatMagnitude(scaled)}${unit ? ` ${unit}` : ''}`;
}

export const DURATION_SCALE: Readonly<Record<string, number>> = {
  nanoseconds: 1,
  microseconds: 1e3,
  milliseconds: 1e6,
  seconds: 1e9,
};
/** Bytes per value of each byte unit. */
export const BYTE_SCALE: Readonly<Record<string, number>> = {
  bytes: 1,
  kilobytes: 1024,
  megabytes: 1024 ** 2,
  gigabytes: 1024 ** 3,
  terabytes: 1024 ** 4,
};

/** The units `formatNumber` shows in their own way (the rest read as plain numbers). */
export function hasNumberFormat(unit: string): boolean {
  return (
    DURATION_SCALE[unit] !== undefined ||
    BYTE_SCALE[unit] !== undefined ||
    unit === 'utilization' ||
    unit === 'percents'
  );
}

/**
 * A number in its unit (spec §3 Units), as the web app and alert messages show it: durations
 * humanised ("1.5ms"), bytes in KB..PB, utilization (0..1) and percents as %, anything else with
 * the magnitude rule and k/m/b. `date` and text values are the web app's (lib/format/number.ts).
 */
export function formatNumber(value: number, unit: string | undefined): string {
  if (unit && DURATION_SCALE[unit] !== undefined) return formatDuration(value * DURATION_SCALE[unit]);
  if (unit && BYTE_SCALE[unit] !== undefined) return formatBytes(value * BYTE_SCALE[unit]);
  if (unit === 'utilization') return formatUtilization(value);
  if (unit === 'percents') return formatPercents(value);
  return formatNum(value);
}
