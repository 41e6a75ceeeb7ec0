/**
 * Span durations arrive in nanoseconds. They are shown in µs, ms or s, with the decimals of the
 * spec's magnitude rule (§9: 3 below 0.1, 2 below 1, 1 below 10, else 0), e.g. "250ms", "1.5ms",
 * "0.25µs", "12s". Pure so it can be pinned by a table test.
 */
const UNITS = [
  { suffix: 'µs', ns: 1e3 },
  { suffix: 'ms', ns: 1e6 },
  { suffix: 's', ns: 1e9 },
] as const;

export function magnitudeDecimals(value: number): number {
  const abs = Math.abs(value);
  if (abs < 0.1) return 3;
  if (abs < 1) return 2;
  if (abs < 10) return 1;
  return 0;
}

/** Formats `value` with the magnitude rule, re-deciding when rounding crosses a bound (9.96 -> "10"). */
export function formatMagnitude(value: number): string {
  const decimals = magnitudeDecimals(value);
  const rounded = Number(value.toFixed(decimals));
  return value.toFixed(Math.min(decimals, magnitudeDecimals(rounded)));
}

export function formatDuration(ns: number): string {
  if (!Number.isFinite(ns) || ns === 0) return '0';
  const abs = Math.abs(ns);
  // Pick the unit from the magnitude, then step up when rounding would print 1000 of it.
  let index = abs < 1e6 ? 0 : abs < 1e9 ? 1 : 2;
  while (index < UNITS.length - 1 && Math.abs(Number(formatMagnitude(ns / UNITS[index].ns))) >= 1000) index++;
  const unit = UNITS[index];
  return `${formatMagnitude(ns / unit.ns)}${unit.suffix}`;
}
