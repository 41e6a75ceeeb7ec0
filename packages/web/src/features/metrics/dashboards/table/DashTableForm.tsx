import type { Dashboard } from '@lantern/shared';
import { useState } from 'react';
import { useUpdateDashboardTable } from '../dashboardsApi';
import { FormShell } from '../grid/forms/FormShell';
import { MetricsFields, useMetricsState } from '../grid/forms/MetricsFields';
import { useMetricTable, type Range } from '../grid/gridApi';
import { TablePanel } from '../grid/panels/TablePanel';

/**
 * 'Edit table' (spec Dashboard page, Table tab): the table's metrics, query and column units, with the
 * live table. It opens with the query the tab shows (`query`: an unsaved edit of the tab's builder or
 * grouping toggle included), and once saved the tab shows what was saved (`onSaved` drops its edit).
 */
export function DashTableForm({
  projectId,
  dashboard,
  query: shown,
  range,
  onSaved,
  onClose,
}: {
  projectId: number;
  dashboard: Dashboard;
  /** The query on the tab (its unsaved edit, else the saved one). */
  query?: string;
  range: Range;
  onSaved?: () => void;
  onClose: () => void;
}) {
  const m = useMetricsState({
    metrics: dashboard.tableMetrics,
    query: shown ?? dashboard.tableQuery,
    columnMap: dashboard.tableColumnMap,
  });
  const [submitted, setSubmitted] = useState(false);
  const preview = useMetricTable(projectId, { metrics: m.metrics, query: m.query }, range);
  const update = useUpdateDashboardTable(projectId);
  const save = () => {
    setSubmitted(true);
    if (m.error) return;
    update.mutate(
      { dashId: dashboard.id, body: { tableMetrics: m.metrics, tableQuery: m.query, tableColumnMap: m.columnMap } },
      {
        onSuccess: () => {
          onSaved?.();
          onClose();
        },
      },
    );
  };
  return (
    <FormShell
      title="Edit table"
      testId="dash-table-form"
      editable
      isNew={false}
      saving={update.isPending}
      error={update.error?.message}
      onSave={save}
      onClose={onClose}
      preview={
        m.metrics.length ? (
          <TablePanel
            projectId={projectId}
            params={{ metrics: m.metrics, columnMap: m.columnMap }}
            query={m.query}
            range={range}
            height={420}
            perPage={10}
          />
        ) : undefined
      }
    >
      <MetricsFields projectId={projectId} state={m} submitted={submitted} range={range} preview={preview.data} />
    </FormShell>
  );
}
