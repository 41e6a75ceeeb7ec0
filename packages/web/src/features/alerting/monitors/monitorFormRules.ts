import {
  ColumnMap,
  formatNumber,
  hasNumberFormat,
  MAX_MONITOR_MATCHERS,
  type ErrorMatcher,
  type MetricColumn,
} from '@lantern/shared';
import { cleanUnit, columnUnit } from '../../metrics/dashboards/grid/units';

/** Pure rules of the monitor forms (spec platform §2.9, §2.10, §5). */

export const blankMatcher = (): ErrorMatcher => ({ attr: '', op: '=', value: '' });
export const isBlank = (m: ErrorMatcher) => !m.attr && !m.value;

/** At least one blank matcher row is always shown (spec platform §2.10): one is added when none is left. */
export const withBlankRow = (ms: ErrorMatcher[]): ErrorMatcher[] => (ms.some(isBlank) ? ms : [...ms, blankMatcher()]);

/**
 * `withBlankRow`, but never past the server's limit of MAX_MONITOR_MATCHERS rows (blank ones count
 * there too): with every row filled, no blank row is added.
 */
export const withMatcherRow = (ms: ErrorMatcher[]): ErrorMatcher[] =>
  ms.length >= MAX_MONITOR_MATCHERS ? ms : withBlankRow(ms);

/**
 * The hint under a metric monitor's query (spec platform §5): the query must return exactly one
 * column. Nothing while the columns are not known yet (no metric chosen, the preview on its way).
 */
export function columnHint(columns: readonly { name: string }[] | undefined): string | undefined {
  if (columns === undefined || columns.length === 1) return undefined;
  if (columns.length === 0) return 'The query must return at least one column to monitor.';
  return `The query returns ${columns.length} columns, but only a single column is allowed.`;
}

/** The column a metric monitor checks: the query's only one, else none (the save is rejected). */
export const singleColumn = (columns: readonly { name: string }[] | undefined): string =>
  columns?.length === 1 ? columns[0].name : '';

/**
 * The `columns` value of the new page's address (spec platform §2.1): the JSON text of a column map
 * (name → unit, color), as a dashboard panel's Monitor action sends it. Anything else is no map.
 */
export function parseColumnMap(text: string | null): ColumnMap {
  if (!text) return {};
  try {
    const parsed = ColumnMap.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/**
 * The unit a prefilled column map gives the monitored column: its entry's unit, or, while the
 * query's column is not known yet, the unit every entry of the map agrees on. '' is none.
 */
export function prefillUnit(map: ColumnMap, column: string): string {
  if (column) return cleanUnit(map[column]?.unit ?? '');
  const units = [...new Set(Object.values(map).map((c) => cleanUnit(c.unit)))];
  return units.length === 1 ? units[0] : '';
}

/**
 * The unit a new monitor's column starts with: the prefilled column map's, else the column's own
 * unit from the query's answer (a `p90($spans)` column is in microseconds), the rule dashboards
 * follow (spec platform §3 Units). Braced annotation units (`{request}`) are none.
 */
export function defaultUnit(map: ColumnMap, column: string, columns: readonly MetricColumn[] | undefined): string {
  const own = column ? columns?.find((c) => c.name === column) : undefined;
  return own ? columnUnit(map, own) : prefillUnit(map, column);
}

/**
 * The observed range of the monitored series over the preview (reference frontend §1.3.14): the
 * smallest value other than zero ("zeroes excluded") and the largest; null when there is none.
 */
export function observedRange(series: readonly { values: readonly (number | null)[] }[]): {
  min: number | null;
  max: number | null;
} {
  let min: number | null = null;
  let max: number | null = null;
  for (const s of series)
    for (const v of s.values) {
      if (v === null || !Number.isFinite(v)) continue;
      if (max === null || v > max) max = v;
      if (v !== 0 && (min === null || v < min)) min = v;
    }
  return { min, max };
}

/** An observed value as a Min / Max field takes it: 3 decimals below 0.1, 2 below 1, 1 below 10, else 0, trimmed (reference frontend §3.7). */
export function formatObserved(n: number): string {
  const abs = Math.abs(n);
  return String(Number(n.toFixed(abs < 0.1 ? 3 : abs < 1 ? 2 : abs < 10 ? 1 : 0)));
}

/** The number at the start of a formatted value ("1.5" of "1.5s"). */
const leadingNumber = (text: string): number => Number(/^-?[\d.]+/.exec(text)?.[0] ?? NaN);

/**
 * A bound or observed value as people read it in the column's unit ("8 GB", "1.5s", "20%"), when
 * that reads as another number than the bare one the field takes; undefined when it adds nothing
 * (no unit, a plain number unit, "250ms" for 250 milliseconds).
 */
export function unitReading(n: number, unit: string): string | undefined {
  if (!unit || !hasNumberFormat(unit) || !Number.isFinite(n)) return undefined;
  const shown = formatNumber(n, unit);
  return leadingNumber(shown) === Number(formatObserved(n)) ? undefined : shown;
}

/**
 * A min or max value as typed (spec platform §2.9): empty is none; a number is the bound; "20%" is
 * 0.2 in a utilization column (0..1) and 20 in a percents one. Anything else is refused at the
 * field, saying what to type, before Save (the server takes numbers only).
 */
export function parseBound(text: string, unit: string): { value: number | null; error?: string } {
  const t = text.trim();
  if (t === '') return { value: null };
  const percent = /^([+-]?(?:\d+\.?\d*|\.\d+))\s*%$/.exec(t);
  if (percent) {
    const n = Number(percent[1]);
    if (unit === 'utilization') return { value: n / 100 };
    if (unit === 'percents') return { value: n };
    return { value: null, error: 'A number without %, or pick the unit percents or utilization' };
  }
  const n = Number(t);
  return Number.isFinite(n) ? { value: n } : { value: null, error: 'A number, e.g. 20 or 0.5' };
}

/**
 * "Observed min / max: X" in the column's unit, with the number to type into the field when the
 * unit scales it (a bytes column: "8.2 GB = 8833542494"; milliseconds: "1.5s = 1500", but "250ms").
 */
export function formatObservedIn(n: number, unit: string): string {
  const raw = formatObserved(n);
  const reading = unitReading(n, unit);
  if (reading !== undefined) return `${reading} = ${raw}`;
  return unit && hasNumberFormat(unit) ? formatNumber(n, unit) : raw;
}

/**
 * The keys an error monitor's matcher can use, from the tracing attribute keys: span and resource
 * attributes (`service.name`, `http.route`), not the span's own columns (`.system`, `.name`), which
 * the matchers never see (the evaluator matches the failed span's attributes).
 */
export const matcherAttrKeys = (items: readonly { value: string }[]): string[] =>
  items.map((i) => i.value).filter((k) => !k.startsWith('.'));

/** The last 24 hours to the minute: where the error monitor form looks for attribute suggestions. */
export function suggestionRange(now: number): { time_gte: string; time_lt: string } {
  const lt = Math.ceil(now / 60_000) * 60_000;
  return { time_gte: new Date(lt - 24 * 3600_000).toISOString(), time_lt: new Date(lt).toISOString() };
}
