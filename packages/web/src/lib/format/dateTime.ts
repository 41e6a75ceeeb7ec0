/**
 * Dates are shown in the viewer's local time as "Jun 15 2023 14:30" (datetime) or with seconds and
 * milliseconds (full), like the reference product. Pure: the Date is passed in.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function formatDateTime(date: Date): string {
  if (Number.isNaN(date.getTime())) return 'Invalid date';
  return `${MONTHS[date.getMonth()]} ${date.getDate()} ${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function formatDateTimeFull(date: Date): string {
  if (Number.isNaN(date.getTime())) return 'Invalid date';
  return `${formatDateTime(date)}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

/** "Jun 15 14:30": toolbar ranges. */
export function formatDateTimeShort(date: Date): string {
  if (Number.isNaN(date.getTime())) return 'Invalid date';
  return `${MONTHS[date.getMonth()]} ${date.getDate()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** "14:30:05.042": event times. */
export function formatTime(date: Date): string {
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

/** "5 minutes ago", "2 hours ago", "Jun 15 14:30" after a day: span list times. */
export function formatRelative(date: Date, now: number): string {
  const s = Math.round((now - date.getTime()) / 1000);
  if (s < 0) return formatDateTimeShort(date);
  if (s < 60) return `${s} second${s === 1 ? '' : 's'} ago`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} minute${m === 1 ? '' : 's'} ago`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} hour${h === 1 ? '' : 's'} ago`;
  return formatDateTimeShort(date);
}
