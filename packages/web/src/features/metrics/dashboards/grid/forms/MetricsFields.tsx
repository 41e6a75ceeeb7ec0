import { Typography } from '@mui/material';
import type { ColumnMap, MetricAlias, MetricColumn, MetricQueryPart } from '@lantern/shared';
import { useState } from 'react';
import type { z } from 'zod';
import { MetricsPicker, type MetricsPickerProps } from '../../../query/MetricsPicker';
import { MetricsQueryBuilder } from '../../../query/MetricsQueryBuilder';
import type { Range } from '../gridApi';
import { ColumnUnits } from './ColumnUnits';
import { metricsError } from './validation';

/** The metrics, query and column units of a form over metrics (panels, the table, gauges). */
export function useMetricsState(init: { metrics?: MetricAlias[]; query?: string; columnMap?: ColumnMap } | undefined) {
  const [metrics, setMetrics] = useState<MetricAlias[]>(init?.metrics ?? []);
  const [query, setQuery] = useState(init?.query ?? '');
  const [columnMap, setColumnMap] = useState<ColumnMap>(init?.columnMap ?? {});
  return { metrics, setMetrics, query, setQuery, columnMap, setColumnMap, error: metricsError(metrics) };
}
export type MetricsState = ReturnType<typeof useMetricsState>;

/**
 * The fields every metrics form starts with: the metrics (with their error once the form was
 * submitted), the query, and the result columns' units (`withColor`: and colours).
 */
export function MetricsFields({
  projectId,
  state,
  submitted,
  range,
  preview,
  shape = 'columns',
  withColor,
}: {
  projectId: number;
  state: MetricsState;
  submitted: boolean;
  range: Range;
  /** The live preview's answer: per-part errors and the result columns. */
  preview?: { query: { parts: z.infer<typeof MetricQueryPart>[] }; columns: MetricColumn[] };
  shape?: MetricsPickerProps['shape'];
  withColor?: boolean;
}) {
  const error = submitted ? state.error : undefined;
  return (
    <>
      <div>
        <MetricsPicker
          projectId={projectId}
          value={state.metrics}
          query={state.query}
          shape={shape}
          onChange={(m, q) => {
            state.setMetrics(m);
            state.setQuery(q);
          }}
        />
        {error && (
          <Typography variant="caption" color="error" data-testid="metrics-error">
            {error}
          </Typography>
        )}
      </div>
      <MetricsQueryBuilder
        projectId={projectId}
        metrics={state.metrics}
        query={state.query}
        onChange={state.setQuery}
        range={range}
        parts={preview?.query.parts}
        disabled={!state.metrics.length}
      />
      <ColumnUnits
        columns={preview?.columns ?? []}
        value={state.columnMap}
        onChange={state.setColumnMap}
        withColor={withColor}
      />
    </>
  );
}
