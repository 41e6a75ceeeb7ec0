/**
 * The units a value can carry (spec §3 Units: none, percents, utilization, nanoseconds,
 * microseconds, milliseconds, seconds, bytes, kilobytes, megabytes, gigabytes, terabytes, date);
 * '' is "none". Every one has a formatter in `formatUnit`.
 */
export const UNITS = [
  '',
  'percents',
  'utilization',
  'nanoseconds',
  'microseconds',
  'milliseconds',
  'seconds',
  'bytes',
  'kilobytes',
  'megabytes',
  'gigabytes',
  'terabytes',
  'date',
] as const;

export type Unit = (typeof UNITS)[number];
