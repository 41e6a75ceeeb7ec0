import { AppError } from '../../http/appError';

/**
 * Query time ranges (reference query §5): `time_gte`/`time_lt` as unix seconds, RFC 3339 or the
 * compact `YYYYMMDDTHHMMSS` UTC form; the bucket is the first of the candidate periods giving at
 * most 120 points. The start is aligned down to the bucket (the reference left it unaligned and
 * mis-placed points, query §8 item 10), so point i covers `gte + i * bucket` exactly.
 *
 * The current minute is still being exported into: summed over it, a counter draws a drop that is
 * not there. `complete` is where the finished minutes end; sums read up to it (the reference's
 * metric pages end their range at the current minute truncated), other values up to `lt`.
 */
const PERIODS_MIN = [1, 2, 3, 5, 10, 15, 30, 60, 120, 180, 240, 300, 360, 720];
const MAX_RANGE_DAYS = 400;

export interface TimeGrid {
  gte: Date;
  lt: Date;
  /** The end of the finished minutes: `lt`, or the start of the current minute when `lt` is later. */
  complete: Date;
  bucketMin: number;
  points: number;
  /** Datapoints table to read: the coarsest rollup whose period divides the bucket. */
  table: DatapointTable;
}

export type DatapointTable = 'datapoint_minutes' | 'datapoint_15m' | 'datapoint_hours';

export function datapointTable(bucketMin: number): DatapointTable {
  if (bucketMin % 60 === 0) return 'datapoint_hours';
  return bucketMin % 15 === 0 ? 'datapoint_15m' : 'datapoint_minutes';
}

export function parseTime(raw: string, name: string): Date {
  let d: Date | null = null;
  if (/^\d+$/.test(raw)) d = new Date(Number(raw) * 1000);
  else if (raw[4] === '-') d = new Date(raw);
  else {
    const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})([+-]\d{2}:\d{2})?$/.exec(raw);
    if (m) d = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7] ?? 'Z'}`);
  }
  if (!d || Number.isNaN(d.getTime()))
    throw new AppError(
      'invalid_input',
      'invalid_time',
      `${name} must be unix seconds, RFC 3339 or YYYYMMDDTHHMMSS, got ${JSON.stringify(raw)}`,
    );
  return d;
}

export function groupingPeriodMin(rangeMs: number, maxPoints = 120): number {
  for (const p of PERIODS_MIN) if (Math.floor(rangeMs / (p * 60_000)) <= maxPoints) return p;
  return 1440;
}

export function timeGrid(gteRaw: string, ltRaw: string, now = Date.now()): TimeGrid {
  const gte0 = parseTime(gteRaw, 'time_gte');
  const lt = parseTime(ltRaw, 'time_lt');
  const range = lt.getTime() - gte0.getTime();
  if (range <= 0) throw new AppError('invalid_input', 'invalid_time', 'time_lt must be after time_gte');
  if (range > MAX_RANGE_DAYS * 86_400_000)
    throw new AppError('invalid_input', 'invalid_time', `the time range can't be longer than ${MAX_RANGE_DAYS} days`);
  const bucketMin = groupingPeriodMin(range);
  const bucketMs = bucketMin * 60_000;
  const gte = new Date(Math.floor(gte0.getTime() / bucketMs) * bucketMs);
  const ongoing = Math.floor(now / 60_000) * 60_000;
  return {
    gte,
    lt,
    complete: lt.getTime() > ongoing && ongoing > gte0.getTime() ? new Date(ongoing) : lt,
    bucketMin,
    points: Math.ceil((lt.getTime() - gte.getTime()) / bucketMs),
    table: datapointTable(bucketMin),
  };
}

/** A fixed grid (monitors, tests): `points` buckets of `bucketMin` minutes starting at `gte`. */
export function fixedGrid(gte: Date, bucketMin: number, points: number): TimeGrid {
  const lt = new Date(gte.getTime() + points * bucketMin * 60_000);
  return { gte, lt, complete: lt, bucketMin, points, table: datapointTable(bucketMin) };
}

/**
 * The minutes a sum in bucket `i` covers: `bucketMin`, fewer for the bucket `complete` cuts. A bucket
 * after `complete` holds a sum only while the current minute is all a metric has: its bucket length.
 */
export function bucketMinutes(grid: TimeGrid, i: number): number {
  const start = grid.gte.getTime() + i * grid.bucketMin * 60_000;
  const covered = Math.min(grid.bucketMin, (grid.complete.getTime() - start) / 60_000);
  return covered > 0 ? covered : grid.bucketMin;
}

export function bucketTimes(grid: TimeGrid): string[] {
  const ms = grid.bucketMin * 60_000;
  return Array.from({ length: grid.points }, (_, i) => new Date(grid.gte.getTime() + i * ms).toISOString());
}
