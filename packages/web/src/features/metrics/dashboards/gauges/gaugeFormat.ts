import type { ColumnMap, MetricColumn } from '@lantern/shared';
import { formatDateTime } from '../../../../lib/format/dateTime';
import { formatUnit } from '../../../../lib/format/number';
import { columnUnit } from '../grid/units';

const formatValue = (v: unknown, unit: string) => {
  if (v === undefined || v === null) return '-';
  if (unit === 'date' && typeof v === 'number') return formatDateTime(new Date(v * 1000));
  return formatUnit(v, unit);
};

/**
 * A text gauge's value (reference frontend §1.3.13): with a template each `${column}` becomes that
 * column's formatted value ('-' when missing); without one, the first value column; no columns: '-'.
 */
export function formatGauge(
  template: string,
  columns: MetricColumn[],
  values: Record<string, unknown>,
  columnMap: ColumnMap,
): string {
  const unitOf = (name: string) => {
    const col = columns.find((c) => c.name === name);
    return col ? columnUnit(columnMap, col) : (columnMap[name]?.unit ?? '');
  };
  if (template.trim())
    return template.replace(/\$\{([^}]+)\}/g, (_, name: string) =>
      formatValue(values[name.trim()], unitOf(name.trim())),
    );
  const first = columns.find((c) => !c.isGroup);
  if (!first) return '-';
  return formatValue(values[first.name], unitOf(first.name));
}

/** A gauge's border colour (spec §3 Gauge): its first column's colour, else #1976D2. */
export function gaugeColor(columnMap: ColumnMap): string {
  return Object.values(columnMap).find((c) => c.color)?.color || '#1976D2';
}
