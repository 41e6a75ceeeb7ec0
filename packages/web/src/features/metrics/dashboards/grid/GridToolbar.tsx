import AddIcon from '@mui/icons-material/Add';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import { Box, Button, Menu, MenuItem, Paper } from '@mui/material';
import type { Dashboard, GridColumn, GridColumnType, MetricAlias } from '@lantern/shared';
import { useMemo, useState } from 'react';
import { MetricsQueryBuilder } from '../../query/MetricsQueryBuilder';
import { useSaveGridQuery, type Range } from './gridApi';

/** The metrics of every panel, once per alias (the dashboard query builder offers their attributes). */
export function gridMetrics(grid: GridColumn[]): MetricAlias[] {
  const seen = new Map<string, MetricAlias>();
  for (const c of grid) {
    const list =
      c.type === 'heatmap'
        ? [{ name: c.params.metric, alias: c.params.metric.replace(/[^a-z0-9_]/gi, '_').toLowerCase() }]
        : c.params.metrics;
    for (const m of list) if (!seen.has(m.alias)) seen.set(m.alias, m);
  }
  return [...seen.values()];
}

/** Above the grid: the dashboard query (where / group by over the panels' metrics) with Save when changed, and 'Add visualization'. */
export function GridToolbar({
  projectId,
  dashboard,
  grid,
  range,
  query,
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
        {grid.length > 0 && (
          <MetricsQueryBuilder
            projectId={projectId}
            metrics={metrics}
            query={query}
            onChange={onQueryChange}
            range={range}
          />
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
          </Menu>
        </>
      )}
    </Paper>
  );
}
