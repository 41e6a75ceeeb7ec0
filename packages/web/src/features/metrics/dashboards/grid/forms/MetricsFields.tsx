import { Typography } from '@mui/material';
import type { ColumnMap, MetricAlias, MetricColumn, MetricQueryPart } from '@lantern/shared';
import type { z } from 'zod';
import { MetricsPicker } from '../../../query/MetricsPicker';
import { MetricsQueryBuilder } from '../../../query/MetricsQueryBuilder';
import type { Range } from '../gridApi';
import { ColumnUnits } from './ColumnUnits';

/** The fields every metrics form starts with: the metrics (with their error), the query, and the result columns' units. */
export function MetricsFields(props: {
  projectId: number;
  metrics: MetricAlias[];
  onMetrics: (m: MetricAlias[]) => void;
  metricsError?: string;
  query: string;
  onQuery: (q: string) => void;
  range: Range;
  /** The live preview's answer: per-part errors and the result columns. */
  preview?: { query: { parts: z.infer<typeof MetricQueryPart>[] }; columns: MetricColumn[] };
  columnMap: ColumnMap;
  onColumnMap: (m: ColumnMap) => void;
}) {
  return (
    <>
      <div>
        <MetricsPicker
          projectId={props.projectId}
          value={props.metrics}
          query={props.query}
          shape="columns"
          onChange={(m, q) => {
            props.onMetrics(m);
            props.onQuery(q);
          }}
        />
        {props.metricsError && (
          <Typography variant="caption" color="error" data-testid="metrics-error">
            {props.metricsError}
          </Typography>
        )}
      </div>
      <MetricsQueryBuilder
        projectId={props.projectId}
        metrics={props.metrics}
        query={props.query}
        onChange={props.onQuery}
        range={props.range}
        parts={props.preview?.query.parts}
        disabled={!props.metrics.length}
      />
      <ColumnUnits columns={props.preview?.columns ?? []} value={props.columnMap} onChange={props.onColumnMap} />
    </>
  );
}
