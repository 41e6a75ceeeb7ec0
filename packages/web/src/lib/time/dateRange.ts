/**
 * The date range model behind every date range picker (spec platform §2.13, §4, §9; reference
 * frontend §1.3.1, §2.1-2.2). Pure: `now` is always passed in, so the enable rules of the arrows,
 * the 'now' mode and the address-bar format are pinned by table tests.
 *
 * A range is its end `lt` and its `duration` (ms). In 'now' mode the end follows the clock (the
 * current minute, rounded up so the newest spans are inside) and is refreshed every 5 minutes.
 */
export interface DateRange {
  /** End (exclusive), ms since epoch. */
  lt: number;
  /** Length in ms. */
  duration: number;
  isNow: boolean;
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** 'now' mode re-reads the clock this often (spec §9). */
export const NOW_REFRESH_MS = 5 * MINUTE;
/** The default period (spec platform §9). */
export const DEFAULT_DURATION = HOUR;
/** Previous period is offered only while the start is within 30 days; next only when the end is more than 15 minutes ago. */
const PREV_LIMIT = 30 * DAY;
const NEXT_MARGIN = 15 * MINUTE;

export const gteOf = (r: DateRange) => r.lt - r.duration;

/** The current minute, rounded up. */
export function nowEnd(now: number): number {
  return Math.ceil(now / MINUTE) * MINUTE;
}

export function nowRange(duration: number, now: number): DateRange {
  return { lt: nowEnd(now), duration, isNow: true };
}

export function fixedRange(gte: number, lt: number): DateRange {
  return { lt, duration: lt - gte, isNow: false };
}

/** A new period: kept from the same start while that end is still in the past, else ending now. */
export function changeDuration(r: DateRange, duration: number, now: number): DateRange {
  if (!r.isNow && gteOf(r) + duration < now) return { lt: gteOf(r) + duration, duration, isNow: false };
  return nowRange(duration, now);
}

/** `duration` around `t`, never ending in the future (trace and span pages). */
export function around(t: number, duration: number, now: number): DateRange {
  return { lt: Math.min(t + duration / 2, nowEnd(now)), duration, isNow: false };
}

export function hasPrev(r: DateRange, now: number): boolean {
  return now - gteOf(r) < PREV_LIMIT;
}

export function hasNext(r: DateRange, now: number): boolean {
  return !r.isNow && now - r.lt > NEXT_MARGIN;
}

export function prevPeriod(r: DateRange): DateRange {
  return { lt: r.lt - r.duration, duration: r.duration, isNow: false };
}

export function nextPeriod(r: DateRange, now: number): DateRange {
  return { lt: Math.min(r.lt + r.duration, now), duration: r.duration, isNow: false };
}

/** Clamps the duration to a page's maximum (90 days for dashboards and the group dialog). */
export function limitRange(r: DateRange, maxDays: number | undefined): DateRange {
  if (!maxDays || r.duration <= maxDays * DAY) return r;
  return { ...r, duration: maxDays * DAY };
}

// ---- periods ------------------------------------------------------------------------------------

export interface Period {
  ms: number;
  text: string;
}

export const PERIODS: Period[] = [
  { ms: 15 * MINUTE, text: '15 minutes' },
  { ms: 30 * MINUTE, text: '30 minutes' },
  { ms: HOUR, text: '1 hour' },
  { ms: 3 * HOUR, text: '3 hours' },
  { ms: 6 * HOUR, text: '6 hours' },
  { ms: 12 * HOUR, text: '12 hours' },
  { ms: 24 * HOUR, text: '24 hours' },
  { ms: 3 * DAY, text: '3 days' },
  { ms: 7 * DAY, text: '7 days' },
  { ms: 10 * DAY, text: '10 days' },
  { ms: 14 * DAY, text: '14 days' },
  { ms: 30 * DAY, text: '30 days' },
];

/** The period list up to a page's limit (30 days by default, 10 on the fixed pickers). */
export function periodsUpTo(maxDays = 30): Period[] {
  return PERIODS.filter((p) => p.ms <= maxDays * DAY);
}

/** "1 hour" for listed periods, else "2 hours 30 minutes" style. */
export function periodText(ms: number): string {
  const listed = PERIODS.find((p) => p.ms === ms);
  if (listed) return listed.text;
  const parts: string[] = [];
  let rest = Math.round(ms / MINUTE);
  for (const [unit, size] of [
    ['day', DAY / MINUTE],
    ['hour', HOUR / MINUTE],
    ['minute', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n) parts.push(`${n} ${unit}${n === 1 ? '' : 's'}`);
  }
  return parts.slice(0, 2).join(' ') || '0 minutes';
}

// ---- custom duration ("Last N minutes/hours/days") ----------------------------------------------

export type DurationUnit = 'minutes' | 'hours' | 'days';
export const UNIT_MS: Record<DurationUnit, number> = { minutes: MINUTE, hours: HOUR, days: DAY };

/** Largest unit that divides the duration, moving up when the amount would be 1000 or more. */
export function splitDuration(ms: number): { amount: number; unit: DurationUnit } {
  const units: DurationUnit[] = ['days', 'hours', 'minutes'];
  let index = units.findIndex((u) => ms % UNIT_MS[u] === 0);
  if (index === -1) index = units.length - 1;
  while (index > 0 && Math.floor(ms / UNIT_MS[units[index]]) >= 1000) index--;
  const unit = units[index];
  return { amount: Math.floor(ms / UNIT_MS[unit]), unit };
}

// ---- address bar: time_gte (compact UTC) and time_dur (seconds) -----------------------------------

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** 2023-06-15T14:30:00Z -> "20230615T143000". */
export function formatCompactUtc(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

/** "20230615T143000" (or any Date-parsable text) -> ms; undefined when it cannot be read. */
export function parseCompactUtc(text: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})$/.exec(text);
  if (m) {
    const [y, mo, d, h, mi, s] = m.slice(1).map(Number);
    const ms = Date.UTC(y, mo - 1, d, h, mi, s);
    return Number.isNaN(ms) ? undefined : ms;
  }
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/**
 * A live ('now') range is written as its duration alone, so a link to it stays relative: opened an
 * hour later it shows the last hour then, not the window it was copied in (issue 41, as Grafana's
 * `from=now-1h`). A fixed range keeps its start.
 */
export function toAddress(r: DateRange): { time_gte?: string; time_dur: string } {
  return r.isNow ? { time_dur: String(Math.round(r.duration / 1000)) } : fixedAddress(gteOf(r), r.lt);
}

/** The address of the fixed range [gte, lt) (ms). */
export function fixedAddress(gte: number, lt: number): { time_gte: string; time_dur: string } {
  return { time_gte: formatCompactUtc(gte), time_dur: String(Math.round((lt - gte) / 1000)) };
}

/** `toAddress` as an address write: a live range removes a start the address still holds. */
export function toAddressPatch(r: DateRange): { time_gte: string | null; time_dur: string } {
  const a = toAddress(r);
  return { time_gte: a.time_gte ?? null, time_dur: a.time_dur };
}

/**
 * Reads the range from the address. No `time_dur`: undefined (the page keeps its current range).
 * No `time_gte`: 'now' mode (what a live range writes). An end within 5 minutes of now also means
 * a live view (links written before live ranges dropped their start).
 */
export function fromAddress(
  params: { time_gte?: string | null; time_dur?: string | null },
  now: number,
): DateRange | undefined {
  const seconds = Number(params.time_dur);
  if (!params.time_dur || !Number.isFinite(seconds) || seconds <= 0) return undefined;
  const duration = seconds * 1000;
  const gte = params.time_gte ? parseCompactUtc(params.time_gte) : undefined;
  if (gte === undefined) return nowRange(duration, now);
  const lt = gte + duration;
  if (Math.abs(nowEnd(now) - lt) <= 5 * MINUTE) return nowRange(duration, now);
  return { lt, duration, isNow: false };
}

/** What API calls get: ISO start and end (spec §7). */
export function toApiParams(r: DateRange): { time_gte: string; time_lt: string } {
  return { time_gte: new Date(gteOf(r)).toISOString(), time_lt: new Date(r.lt).toISOString() };
}

// ---- custom from/to inputs: dd-MM-yyyy and H:mm ------------------------------------------------

/** "15-06-2023" -> {y, m, d} (local calendar date) or undefined. */
export function parseDayInput(text: string): { y: number; m: number; d: number } | undefined {
  const m = /^(\d{1,2})-(\d{1,2})-(\d{4})$/.exec(text.trim());
  if (!m) return undefined;
  const [d, mo, y] = m.slice(1).map(Number);
  const date = new Date(y, mo - 1, d);
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d) return undefined;
  return { y, m: mo, d };
}

/** "9:05" / "21:30" (24 hours) -> minutes of the day, or undefined. */
export function parseTimeInput(text: string): number | undefined {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!m) return undefined;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (h > 23 || min > 59) return undefined;
  return h * 60 + min;
}

export function formatDayInput(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getDate())}-${pad(d.getMonth() + 1)}-${d.getFullYear()}`;
}

export function formatTimeInput(ms: number): string {
  const d = new Date(ms);
  return `${d.getHours()}:${pad(d.getMinutes())}`;
}

/** Combines a day and a time input into local ms, or undefined when either is invalid. */
export function combineInputs(day: string, time: string): number | undefined {
  const date = parseDayInput(day);
  const minutes = parseTimeInput(time);
  if (!date || minutes === undefined) return undefined;
  return new Date(date.y, date.m - 1, date.d, Math.floor(minutes / 60), minutes % 60).getTime();
}
