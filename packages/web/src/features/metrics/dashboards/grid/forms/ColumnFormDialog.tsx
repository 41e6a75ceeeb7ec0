import type { Dashboard, GridColumn, GridColumnType } from '@lantern/shared';
import type { Range } from '../gridApi';
import { ChartForm } from './ChartForm';
import { HeatmapForm } from './HeatmapForm';
import { PromqlForm } from './PromqlForm';
import { TableForm } from './TableForm';

/** Which form is open: a new column of a type, or an existing column. */
export type FormTarget = { type: GridColumnType; column?: GridColumn };

/** Opens the chart, table, heatmap or PromQL form; a column with an id is updated (PUT), otherwise created (POST). */
export function ColumnFormDialog({
  projectId,
  dashboard,
  target,
  range,
  gridQuery,
  editable,
  onClose,
}: {
  projectId: number;
  dashboard: Dashboard;
  target: FormTarget;
  range: Range;
  gridQuery: string;
  editable: boolean;
  onClose: () => void;
}) {
  const props = { projectId, dashId: dashboard.id, column: target.column, range, gridQuery, editable, onClose };
  if (target.type === 'chart') return <ChartForm {...props} />;
  if (target.type === 'table') return <TableForm {...props} />;
  if (target.type === 'promql') return <PromqlForm {...props} />;
  return <HeatmapForm {...props} />;
}
