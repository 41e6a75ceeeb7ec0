import { Alert, Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import { useCallback, useMemo, useState } from 'react';
import { MetricChart } from '../../../components/charts/MetricChart';
import { usePromqlRange } from './promqlApi';
import { PromqlEditor } from './PromqlEditor';
import { alignedRange, matrixToChart, stepText } from './promqlResult';

const CHART_HEIGHT = 400;
const LEGEND_MAX_LENGTH = 150;

/**
 * A PromQL query over the page's range, charted like any metrics query: the editor, Run (or Enter),
 * the chart with its legend, the step the range was asked at, and Prometheus's errors and warnings.
 * `query` is the query run (the caller keeps it in the address); the editor's text is a draft
 * until run.
 */
export function PromqlPanel({
  projectId,
  query,
  onQuery,
  range,
}: {
  projectId: number;
  query: string;
  onQuery: (q: string) => void;
  range: { time_gte: string; time_lt: string };
}) {
  // The draft follows a query changed from outside (back, a link); typing changes only the draft.
  const [draft, setDraft] = useState(query);
  const [shown, setShown] = useState(query);
  if (shown !== query) {
    setShown(query);
    setDraft(query);
  }
  const grid = useMemo(() => alignedRange(Date.parse(range.time_gte), Date.parse(range.time_lt)), [range]);
  const res = usePromqlRange(projectId, query ? { query, ...grid } : undefined);
  const chart = useMemo(() => res.data && matrixToChart(res.data.result, grid), [res.data, grid]);
  const run = useCallback((q: string) => onQuery(q.trim()), [onQuery]);

  return (
    <Stack spacing={2} data-testid="promql-panel">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <PromqlEditor projectId={projectId} value={draft} onChange={setDraft} onRun={run} />
        <Button variant="contained" onClick={() => run(draft)} data-testid="promql-run">
          Run
        </Button>
      </Stack>
      <Typography variant="caption" color="text.secondary">
        Step {stepText(grid.step)} · one point a minute is stored, so windows and steps are whole minutes
        {res.data ? ` · ${res.data.result.length} series` : ''}
      </Typography>
      <Box sx={{ position: 'relative', minWidth: 0 }} data-testid="promql-chart">
        {res.isFetching && <LinearProgress sx={{ position: 'absolute', top: 0, left: 0, right: 0, height: 2 }} />}
        {res.error && (
          <Alert severity="error" sx={{ mb: 1 }} data-testid="promql-error">
            {res.error.message}
          </Alert>
        )}
        {res.data?.warnings.map((w) => (
          <Alert severity="warning" sx={{ mb: 1 }} key={w}>
            {w}
          </Alert>
        ))}
        {!query ? (
          <Typography color="text.secondary" sx={{ py: 6, textAlign: 'center' }}>
            Type a PromQL query and press Enter
          </Typography>
        ) : (
          <MetricChart
            time={chart?.time ?? []}
            series={chart?.series ?? []}
            height={CHART_HEIGHT}
            legendMaxLength={LEGEND_MAX_LENGTH}
            testId="promql-metric-chart"
          />
        )}
      </Box>
    </Stack>
  );
}
