import type { ColumnMap, MetricColumn } from '@lantern/shared';

/** The units a column can be shown in (spec §3 Units); '' is "none". */
export { UNITS } from '../../../../lib/format/units';

export const unitLabel = (u: string) => u || 'none';

/** A unit written in braces (`{requests}`) is a unitless annotation (reference §1.3.13). */
export const cleanUnit = (u: string) => (/^\{.*\}$/.test(u) ? '' : u);

/** The unit a column is shown in: the column map's, else the column's own (spec §3). */
export const columnUnit = (map: ColumnMap | undefined, col: Pick<MetricColumn, 'name' | 'unit'>) =>
  cleanUnit(map?.[col.name]?.unit || col.unit);

/** The error text of a query answer: the first part with an error, with the part it belongs to. */
export function queryError(parts: { query: string; error: string }[] | undefined): string | undefined {
  const bad = parts?.filter((p) => p.error);
  if (!bad?.length) return undefined;
  return bad.map((p) => `${p.query}: ${p.error}`).join('\n');
}
