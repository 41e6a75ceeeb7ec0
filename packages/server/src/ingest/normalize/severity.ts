/**
 * Log severity normalisation (reference ingest §2.5, `norm.LogSeverity`): the many spellings
 * loggers use collapse to TRACE/DEBUG/INFO/WARN/ERROR/FATAL so `log:<severity>` systems stay few.
 */

export type LogSeverity = 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'FATAL';

const SEVERITY: Record<string, LogSeverity> = {
  trace: 'TRACE',
  debug: 'DEBUG',
  info: 'INFO',
  information: 'INFO',
  notice: 'INFO',
  log: 'INFO',
  warn: 'WARN',
  warning: 'WARN',
  error: 'ERROR',
  err: 'ERROR',
  alert: 'ERROR',
  fatal: 'FATAL',
  crit: 'FATAL',
  critical: 'FATAL',
  emerg: 'FATAL',
  emergency: 'FATAL',
  panic: 'FATAL',
};

/** The normalised severity, or undefined when the value is not a recognisable severity. */
export function normalizeSeverity(value: unknown): LogSeverity | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return Object.hasOwn(SEVERITY, value.toLowerCase()) ? SEVERITY[value.toLowerCase()] : undefined;
}

const BY_NUMBER: readonly LogSeverity[] = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'];

/**
 * OTLP SeverityNumber (1–4 TRACE … 21–24 FATAL) → severity; undefined for 0 (unspecified) or out
 * of range. QUIRK fixed (reference ingest §7 item 4): the reference ignores the number, so a record
 * carrying only `severity_number: ERROR` was stored as INFO.
 */
export function severityFromNumber(n: number): LogSeverity | undefined {
  return n >= 1 && n <= 24 ? BY_NUMBER[Math.floor((n - 1) / 4)] : undefined;
}
