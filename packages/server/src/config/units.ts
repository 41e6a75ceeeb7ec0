/**
 * Metric unit normalisation at ingest (reference ingest §5.6): OTLP/UCUM units become the names
 * the query language converts between (`ms` -> `milliseconds`, `By` -> `bytes`); dimensionless
 * units become ''. Anything else is kept lowercased, e.g. `{requests}`.
 */
const UNIT_ALIASES: Record<string, string> = {
  '': '',
  '1': '',
  '0': '',
  count: '',
  '%': 'percents',
  percents: 'percents',
  ns: 'nanoseconds',
  nanosecond: 'nanoseconds',
  us: 'microseconds',
  microsecond: 'microseconds',
  ms: 'milliseconds',
  millisecond: 'milliseconds',
  s: 'seconds',
  sec: 'seconds',
  second: 'seconds',
  by: 'bytes',
  byte: 'bytes',
  kb: 'kilobytes',
  kib: 'kilobytes',
  kbyte: 'kilobytes',
  mb: 'megabytes',
  mib: 'megabytes',
  mbyte: 'megabytes',
  gb: 'gigabytes',
  gib: 'gigabytes',
  gbyte: 'gigabytes',
  tb: 'terabytes',
  tib: 'terabytes',
  tbyte: 'terabytes',
};

export function normalizeUnit(unit: string): string {
  const u = unit.trim().toLowerCase();
  return UNIT_ALIASES[u] ?? u;
}
