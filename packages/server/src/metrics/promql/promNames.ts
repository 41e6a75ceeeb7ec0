/**
 * The names a stored metric answers to in PromQL, and where each name's values come from.
 *
 * - A metric whose name is already a valid Prometheus name (every remote-written one, and OTLP
 *   metrics named so) answers under that name as it is: `http_requests_total`, `x_bucket{le}`.
 * - Any other (OTLP, `http.server.duration`) answers under its own UTF-8 name
 *   (`{"http.server.duration"}`) and under the name the OpenTelemetry Collector's Prometheus
 *   exporter gives it: invalid characters to `_`, the unit as a suffix (`_milliseconds`, `_bytes`,
 *   `_ratio` for a dimensionless gauge), `_total` for a monotonic sum.
 * - A histogram (only OTLP makes them) answers as `<name>_bucket{le}`, `<name>_sum` and
 *   `<name>_count`, under both names. Its buckets are derived from the stored (representative
 *   value -> count) map: see promBuckets.ts.
 * Summaries are not exposed (their stored sums and counts are not per-minute increases).
 */

/** Where a PromQL series' value is read from: a stored column, or the histogram map as `le` buckets. */
export type PromColumn = 'sum' | 'count' | 'gauge' | 'bucket';

export interface PromName {
  /** The `__name__` PromQL sees. */
  name: string;
  /** The stored metric. */
  metric: string;
  column: PromColumn;
  kind: 'counter' | 'gauge';
}

export interface CatalogEntry {
  name: string;
  instrument: string;
  unit: string;
  description: string;
}

const LEGACY_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

export const isLegacyName = (name: string): boolean => LEGACY_NAME.test(name);

/** Lantern's normalised units (config/units.ts) as the exporter's suffixes. */
const UNIT_SUFFIX: Record<string, string> = {
  percents: 'percent',
  '': '',
};

/** The unit suffix the Collector's exporter adds (`{requests}`-style annotations are dropped). */
export function unitSuffix(unit: string): string {
  if (unit === '') return '';
  if (unit.includes('{')) return '';
  const u = UNIT_SUFFIX[unit] ?? unit;
  return u.replace(/\//g, '_per_').replace(/[^a-zA-Z0-9_:]+/g, '_');
}

/** The exporter's name of an OTLP metric (without the histogram series suffixes). */
export function exporterName(name: string, unit: string, instrument: string): string {
  const tokens = name.split(/[^a-zA-Z0-9:]+/).filter((t) => t !== '');
  const suffix = unitSuffix(unit);
  if (suffix && tokens[tokens.length - 1] !== suffix) tokens.push(...suffix.split('_').filter((t) => t !== ''));
  if (instrument === 'counter' && tokens[tokens.length - 1] !== 'total') tokens.push('total');
  let out = tokens.join('_');
  if (/^[0-9]/.test(out)) out = `_${out}`;
  return out || '_';
}

/** Every PromQL name of one stored metric. */
export function promNamesOf(m: CatalogEntry): PromName[] {
  const legacy = isLegacyName(m.name);
  // Gauges and histograms: the name and the exporter's (never `_total`); counters below.
  const bases = legacy ? [m.name] : [m.name, exporterName(m.name, m.unit, m.instrument)];
  const out: PromName[] = [];
  const add = (name: string, column: PromColumn, kind: PromName['kind']) => {
    if (!out.some((n) => n.name === name)) out.push({ name, metric: m.name, column, kind });
  };
  switch (m.instrument) {
    case 'counter':
      add(m.name, 'sum', 'counter');
      if (!legacy) add(exporterName(m.name, m.unit, 'counter'), 'sum', 'counter');
      break;
    case 'gauge':
    case 'additive':
      // An up-down counter's stored `gauge` is its level (normalizeMetrics.ts).
      for (const b of bases) add(b, 'gauge', 'gauge');
      break;
    case 'histogram':
      for (const b of bases) {
        add(`${b}_bucket`, 'bucket', 'counter');
        add(`${b}_sum`, 'sum', 'counter');
        add(`${b}_count`, 'count', 'counter');
      }
      break;
    default:
      break;
  }
  return out;
}

/** What the metadata endpoint says of a metric's type. */
export function promType(instrument: string): string {
  switch (instrument) {
    case 'counter':
      return 'counter';
    case 'gauge':
    case 'additive':
      return 'gauge';
    case 'histogram':
      return 'histogram';
    case 'summary':
      return 'summary';
    default:
      return 'unknown';
  }
}

/**
 * The metadata name of a stored metric: the family name (a histogram's without `_bucket`), the
 * exporter's name for a metric whose own name is not a valid Prometheus name.
 */
export function familyName(m: CatalogEntry): string {
  if (isLegacyName(m.name)) return m.name;
  return exporterName(m.name, m.unit, m.instrument === 'counter' ? 'counter' : m.instrument);
}

/**
 * Prometheus's escaping of a UTF-8 name in a URL path segment (`label/<name>/values`):
 * `U__` then each character that is not [a-zA-Z0-9] as `_<hex code point>_`, `_` as `__`.
 */
export function unescapeLabelName(name: string): string {
  if (!name.startsWith('U__')) return name;
  const body = name.slice(3);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '_') {
      out += c;
      continue;
    }
    if (body[i + 1] === '_') {
      out += '_';
      i++;
      continue;
    }
    const end = body.indexOf('_', i + 1);
    const hex = end > i ? body.slice(i + 1, end) : '';
    if (!/^[0-9a-fA-F]+$/.test(hex)) return name;
    const cp = Number.parseInt(hex, 16);
    if (cp > 0x10ffff) return name;
    out += String.fromCodePoint(cp);
    i = end;
  }
  return out;
}
