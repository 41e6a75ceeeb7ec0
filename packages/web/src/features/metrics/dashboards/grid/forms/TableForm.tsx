import { TextField, Typography } from '@mui/material';
import type { ColumnMap, MetricAlias } from '@lantern/shared';
import { useState } from 'react';
import { joinQuery, useMetricTable } from '../gridApi';
import { TablePanel } from '../panels/TablePanel';
import type { ColumnFormProps } from './ChartForm';
import { FormShell } from './FormShell';
import { useColumnFormBase } from './useColumnFormBase';
import { metricsError, required } from './validation';
import { MetricsFields } from './MetricsFields';

/** New / Edit table column: metrics, query (aggregations and group by), units, with the live table. */
export function TableForm({ projectId, dashId, column, range, gridQuery, editable, onClose }: ColumnFormProps) {
  const init = column?.type === 'table' ? column.params : undefined;
  const base = useColumnFormBase(projectId, dashId, column, onClose);
  const [metrics, setMetrics] = useState<MetricAlias[]>(init?.metrics ?? []);
  const [query, setQuery] = useState(init?.query ?? '');
  const [columnMap, setColumnMap] = useState<ColumnMap>(init?.columnMap ?? {});
  const effective = joinQuery(query, gridQuery);
  const preview = useMetricTable(projectId, { metrics, query: effective }, range);
  const nameErr = base.submitted ? required(base.name, 'Name') : undefined;
  const metricsErr = base.submitted ? metricsError(metrics) : undefined;
  const save = () =>
    base.submit(
      { type: 'table', params: { metrics, query, columnMap } },
      !required(base.name, 'Name') && !metricsError(metrics),
    );

  return (
    <FormShell
      title={column ? 'Edit table column' : 'New table column'}
      testId="table-form"
      editable={editable}
      isNew={!column}
      saving={base.saving}
      error={base.error}
      onSave={save}
      onClose={onClose}
      preview={
        metrics.length ? (
          <TablePanel
            projectId={projectId}
            params={{ metrics, columnMap }}
            query={effective}
            range={range}
            height={360}
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
      <TextField
        size="small"
        label="Table name"
        required
        value={base.name}
        onChange={(e) => base.setName(e.target.value)}
        error={!!nameErr}
        helperText={nameErr}
        slotProps={{ htmlInput: { 'data-testid': 'column-name' } }}
      />
      <TextField
        size="small"
        label="Description"
        value={base.description}
        onChange={(e) => base.setDescription(e.target.value)}
        slotProps={{ htmlInput: { 'data-testid': 'column-description' } }}
      />
    </FormShell>
  );
}
