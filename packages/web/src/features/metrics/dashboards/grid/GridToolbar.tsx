import AddIcon from '@mui/icons-material/Add';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import { Box, Button, Menu, MenuItem, Paper, Typography } from '@mui/material';
import type { Dashboard, GridColumn, GridColumnType, MetricAlias } from '@lantern/shared';
import { useMemo, useState } from 'react';
import { MetricsQueryBuilder } from '../../query/MetricsQueryBuilder';
import { useSaveGridQuery, type Range } from './gridApi';

/**
 * The query a table row's panels get, as text: the row's dialog shows it and edits nothing. When a
 * panel has a grid query template, a note says that panel uses its template instead.
 */
function RowQuery({ query, templated }: { query: string; templated: boolean }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1, flexWrap: 'wrap' }} data-testid="grid-query-text">
      <Typography variant="body2" color="text.secondary">
        Query
      </Typography>
      <Box component="code" sx={{ fontSize: 13, wordBreak: 'break-word' }}>
        {query || '(none)'}
      </Box>
      {templated && (
        <Typography variant="caption" color="text.secondary">
          (panels with a grid query template use it instead, filled with the row&apos;s values)
        </Typography>
      )}
    </Box>
  );
}

/** The metrics of every panel, once per alias (the dashboard query builder offers their attributes). */
export function gridMetrics(grid: GridColumn[]): MetricAlias[] {
  const seen = new Map<string, MetricAlias>();
  for (const c of grid) {
    const list =
      c.type === 'heatmap'
        ? [{ name: c.params.metric, alias: c.params.metric.replace(/[^a-z0-9_]/gi, '_').toLowerCase() }]
        : c.type === 'promql'
          ? []
          : c.params.metrics;
    for (const m of list) if (!seen.has(m.alias)) seen.set(m.alias, m);
  }
  return [...seen.values()];
}

/**
 * Above the grid: the dashboard query (where / group by over the panels' metrics) with Save when
 * changed, and 'Add visualization'. In a table row's dialog (`rowQuery`) the grid is read-only: the
 * query the panels get is shown as text instead of the builder.
 */
export function GridToolbar({
  projectId,
  dashboard,
  grid,
  range,
  query,
  rowQuery,
  onQueryChange,
  onSaved,
  editable,
  onAdd,
}: {
  projectId: number;
  dashboard: Dashboard;
  grid: GridColumn[];
  range: Range;
  query: string;
  /** A table row's dialog: the dashboard query narrowed to the row, shown read-only. */
  rowQuery?: string;
  onQueryChange: (q: string) => void;
  onSaved: () => void;
  editable: boolean;
  onAdd: (type: GridColumnType) => void;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const save = useSaveGridQuery(projectId, dashboard.id);
  const metrics = useMemo(() => gridMetrics(grid), [grid]);
  const changed = query !== dashboard.gridQuery;
  const add = (type: GridColumnType) => {
    setAnchor(null);
    onAdd(type);
  };
  return (
    <Paper
      variant="outlined"
      sx={{ p: 1, mb: 1, display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}
      data-testid="grid-toolbar"
    >
      <Box sx={{ flex: 1, minWidth: 300 }} data-testid="grid-query">
        {rowQuery !== undefined ? (
          <RowQuery query={rowQuery} templated={grid.some((c) => c.gridQueryTemplate.trim() !== '')} />
        ) : (
          grid.length > 0 && (
            <MetricsQueryBuilder
              projectId={projectId}
              metrics={metrics}
              query={query}
              onChange={onQueryChange}
              range={range}
              scope="dashboard"
            />
          )
        )}
      </Box>
      {editable && changed && (
        <Button
          variant="contained"
          size="small"
          disabled={save.isPending}
          onClick={() => save.mutate(query, { onSuccess: onSaved })}
          data-testid="grid-query-save"
        >
          Save
        </Button>
      )}
      {editable && (
        <>
          <Button
            variant="outlined"
            size="small"
            startIcon={<AddIcon />}
            endIcon={<ArrowDropDownIcon />}
            onClick={(e) => setAnchor(e.currentTarget)}
            data-testid="add-visualization"
          >
            Add visualization
          </Button>
          <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
            <MenuItem onClick={() => add('chart')}>Chart</MenuItem>
            <MenuItem onClick={() => add('table')}>Table</MenuItem>
            <MenuItem onClick={() => add('heatmap')}>Heatmap</MenuItem>
            <MenuItem onClick={() => add('promql')}>PromQL chart</MenuItem>
          </Menu>
        </>
      )}
    </Paper>
  );
}
