import { Typography } from '@mui/material';
import type { ColumnMap, Dashboard, MetricAlias } from '@lantern/shared';
import { useState } from 'react';
import { useUpdateDashboardTable } from '../dashboardsApi';
import { FormShell } from '../grid/forms/FormShell';
import { metricsError } from '../grid/forms/validation';
import { useMetricTable, type Range } from '../grid/gridApi';
import { TablePanel } from '../grid/panels/TablePanel';
import { MetricsFields } from '../grid/forms/MetricsFields';

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
  const [metrics, setMetrics] = useState<MetricAlias[]>(dashboard.tableMetrics);
  const [query, setQuery] = useState(shown ?? dashboard.tableQuery);
  const [columnMap, setColumnMap] = useState<ColumnMap>(dashboard.tableColumnMap);
  const [submitted, setSubmitted] = useState(false);
  const preview = useMetricTable(projectId, { metrics, query }, range);
  const update = useUpdateDashboardTable(projectId);
  const metricsErr = submitted ? metricsError(metrics) : undefined;
  const save = () => {
    setSubmitted(true);
    if (metricsError(metrics)) return;
    update.mutate(
      { dashId: dashboard.id, body: { tableMetrics: metrics, tableQuery: query, tableColumnMap: columnMap } },
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
        metrics.length ? (
          <TablePanel
            projectId={projectId}
            params={{ metrics, columnMap }}
            query={query}
            range={range}
            height={420}
            perPage={10}
          />
        ) : (
          <Typography color="text.secondary">Select a metric first...</Typography>
        )
      }
    >
      <MetricsFields
        projectId={projectId}
        metrics={metrics}
        onMetrics={setMetrics}
        metricsError={metricsErr}
        query={query}
        onQuery={setQuery}
        range={range}
        preview={preview.data}
        columnMap={columnMap}
        onColumnMap={setColumnMap}
      />
    </FormShell>
  );
}
