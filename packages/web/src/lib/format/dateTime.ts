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
