import type { Dashboard, GridColumn } from '@lantern/shared';
import { Box, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import ReactGridLayout, { useContainerWidth, verticalCompactor, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import { GaugeRow } from '../gauges/GaugeRow';
import { rowFilter, rowPanelQuery, type RowGroups } from '../table/rowFilter';
import { ColumnFormDialog, type FormTarget } from './forms/ColumnFormDialog';
import { GridPanel, PANEL_CHROME } from './GridPanel';
import { GridToolbar } from './GridToolbar';
import { joinQuery, useSaveLayout } from './gridApi';
import {
  columnsLayout,
  GRID_COLS,
  layoutPositions,
  MARGIN,
  ONE_COLUMN_BELOW,
  panelPixelHeight,
  ROW_HEIGHT,
} from './gridLayout';

/** Interface agreed for this session (M2b builds it): the Grid tab of a dashboard. */
export interface GridTabProps {
  projectId: number;
  dashboard: Dashboard;
  grid: GridColumn[];
  range: { time_gte: string; time_lt: string };
  /**
   * The Table tab's row dialog: the row's grouping values, which narrow every panel (through its
   * grid query template when it has one); read-only view when set.
   */
  row?: RowGroups;
  /** Default true; off hides Save / Delete / Create and shows a lock on Edit (spec §6). */
  editable?: boolean;
}

/**
 * The Grid tab (spec Dashboard page, reference frontend §6): the dashboard query applied to every
 * panel (Save when changed), 'Add visualization', the gauge row, and the panels on a 12-column
 * react-grid-layout, dragged by their title and resized from the bottom corners. Positions are saved
 * after each drag or resize, except in the one-column layout below 1000 px.
 */
export function GridTab({ projectId, dashboard, grid, range, row, editable: editableProp = true }: GridTabProps) {
  const editable = editableProp && row === undefined;
  const [draftQuery, setDraftQuery] = useState<string | undefined>();
  const gridQuery = draftQuery ?? dashboard.gridQuery;
  const [form, setForm] = useState<FormTarget | null>(null);
  // Measured before the grid mounts: at its default width (1280) first, every panel would be laid
  // out, drawn, then animated to the real width and drawn again at each step.
  const { width, containerRef, mounted } = useContainerWidth({ measureBeforeMount: true });
  const cols = width < ONE_COLUMN_BELOW ? 1 : GRID_COLS;
  const saveLayout = useSaveLayout(projectId, dashboard.id);
  const layout = useMemo(() => columnsLayout(grid, cols), [grid, cols]);
  const [live, setLive] = useState<Layout | null>(null);
  const heights = useMemo(() => new Map((live ?? layout).map((l) => [l.i, l.h])), [live, layout]);

  const persist = (next: Layout) => {
    setLive(next);
    if (cols !== GRID_COLS || !editable) return;
    const changed = next.some((n) => {
      const c = grid.find((g) => g.id === n.i);
      return !c || c.xAxis !== n.x || c.yAxis !== n.y || c.width !== n.w || c.height !== n.h;
    });
    if (changed) saveLayout.mutate(layoutPositions(next));
  };

  const panelQuery = (c: GridColumn) =>
    row === undefined
      ? joinQuery(c.params.query, gridQuery)
      : joinQuery(c.params.query, ...rowPanelQuery(c.gridQueryTemplate, gridQuery, row));

  return (
    <Box sx={{ maxWidth: 1900, mx: 'auto' }} data-testid="grid-tab">
      <GridToolbar
        projectId={projectId}
        dashboard={dashboard}
        grid={grid}
        range={range}
        query={gridQuery}
        rowQuery={row && joinQuery(gridQuery, rowFilter(row))}
        onQueryChange={setDraftQuery}
        onSaved={() => setDraftQuery(undefined)}
        editable={editable}
        onAdd={(type) => setForm({ type })}
      />
      <GaugeRow
        projectId={projectId}
        dashboard={dashboard}
        dashKind="grid"
        range={range}
        query={gridQuery}
        row={row}
        editable={editable}
      />
      <Box
        ref={containerRef}
        sx={{ mt: 1, '& .react-grid-placeholder': { bgcolor: 'primary.light', borderRadius: 1 } }}
        data-testid="grid-layout"
        data-cols={cols}
      >
        {grid.length === 0 && (
          <Typography
            sx={{
              p: 4,
              textAlign: 'center',
              color: 'text.secondary',
              border: 1,
              borderStyle: 'dashed',
              borderColor: 'divider',
              borderRadius: 1,
            }}
            data-testid="grid-empty"
          >
            This grid has no panels yet. Use 'Add visualization' to chart metrics, show them as a table or as a heatmap.
          </Typography>
        )}
        {mounted && grid.length > 0 && (
          <ReactGridLayout
            width={width}
            layout={layout}
            gridConfig={{ cols, rowHeight: ROW_HEIGHT, margin: [MARGIN, MARGIN], containerPadding: [0, 0] }}
            dragConfig={{ enabled: cols === GRID_COLS && editable, handle: '.drag-handle', cancel: 'button' }}
            resizeConfig={{ enabled: cols === GRID_COLS && editable, handles: ['se', 'sw'] }}
            compactor={verticalCompactor}
            onLayoutChange={(l) => setLive(l)}
            onDragStop={(l) => persist(l)}
            onResizeStop={(l) => persist(l)}
          >
            {grid.map((c) => (
              <div key={c.id} data-testid="grid-item" data-panel-id={c.id}>
                <GridPanel
                  projectId={projectId}
                  column={c}
                  query={panelQuery(c)}
                  range={range}
                  height={Math.max(60, panelPixelHeight(heights.get(c.id) ?? 14) - PANEL_CHROME)}
                  editable={editable}
                  onEdit={() => setForm({ type: c.type, column: c })}
                />
              </div>
            ))}
          </ReactGridLayout>
        )}
      </Box>
      {form && (
        <ColumnFormDialog
          projectId={projectId}
          dashboard={dashboard}
          target={form}
          range={range}
          // From a table row's dialog the (locked) form previews the panel as the dialog shows it.
          gridQuery={
            row !== undefined && form.column
              ? joinQuery(...rowPanelQuery(form.column.gridQueryTemplate, gridQuery, row))
              : gridQuery
          }
          editable={editable}
          onClose={() => setForm(null)}
        />
      )}
    </Box>
  );
}
