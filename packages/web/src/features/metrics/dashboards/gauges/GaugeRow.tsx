import AddIcon from '@mui/icons-material/Add';
import { Box, ButtonBase, Typography } from '@mui/material';
import type { Dashboard, DashKind, Gauge } from '@lantern/shared';
import { useState } from 'react';
import { useConfirm } from '../../../../components/feedback/ConfirmProvider';
import { joinQuery, useDashGauges, useDeleteGauge, useReorderGauges } from '../grid/gridApi';
import { rowPanelQuery, type RowGroups } from '../table/rowFilter';
import { GaugeCard } from './GaugeCard';
import { GaugeForm } from './GaugeForm';

/** Interface agreed for this session (M2b builds it): the row of gauges with its plus card. */
export interface GaugeRowProps {
  projectId: number;
  dashboard: Dashboard;
  dashKind: DashKind;
  range: { time_gte: string; time_lt: string };
  /** Extra query (the dashboard's grid query) joined to each gauge's query. */
  query?: string;
  /**
   * A table row's dialog: the row's grouping values. A gauge with a grid query template gets it
   * filled with them instead of the dashboard query; the others get the dashboard query and the row
   * filter (as grid panels do).
   */
  row?: RowGroups;
  editable?: boolean;
}

/** Moves `from` to the place of `to`. */
export const moveGauge = (list: Gauge[], from: string, to: string): Gauge[] => {
  const src = list.findIndex((g) => g.id === from);
  const dst = list.findIndex((g) => g.id === to);
  if (src < 0 || dst < 0 || src === dst) return list;
  const next = [...list];
  const [item] = next.splice(src, 1);
  next.splice(dst, 0, item);
  return next;
};

/**
 * The gauge row (reference frontend §1.3.13): one card per gauge of this dashboard kind, drag a
 * card onto another to reorder (`PUT .../gauges`), and a plus card that opens an empty gauge form.
 */
export function GaugeRow({ projectId, dashboard, dashKind, range, query, row, editable = true }: GaugeRowProps) {
  const gauges = useDashGauges(projectId, dashboard.id, dashKind);
  const reorder = useReorderGauges(projectId, dashboard.id, dashKind);
  const del = useDeleteGauge(projectId, dashboard.id);
  const confirm = useConfirm();
  const [form, setForm] = useState<{ gauge?: Gauge } | null>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  const list = gauges.data?.gauges ?? [];
  const queryOf = (g: Gauge | undefined) =>
    row === undefined || g === undefined ? query : joinQuery(...rowPanelQuery(g.gridQueryTemplate, query ?? '', row));

  const remove = async (g: Gauge) => {
    if (await confirm({ title: 'Delete gauge', message: `Delete the gauge "${g.name}"?` })) del.mutate(g.id);
  };

  return (
    <Box
      sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'stretch', my: 1 }}
      data-testid={`gauge-row-${dashKind}`}
    >
      {list.map((g) => (
        <GaugeCard
          key={g.id}
          projectId={projectId}
          gauge={g}
          range={range}
          query={queryOf(g)}
          editable={editable}
          onEdit={() => setForm({ gauge: g })}
          onDelete={() => void remove(g)}
          drag={{
            dragging: dragging === g.id,
            onDragStart: (e) => {
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', g.id);
              setDragging(g.id);
            },
            onDragOver: (e) => {
              if (dragging) e.preventDefault();
            },
            onDrop: (e) => {
              e.preventDefault();
              const from = dragging ?? e.dataTransfer.getData('text/plain');
              setDragging(null);
              const next = moveGauge(list, from, g.id);
              if (next !== list) reorder.mutate(next);
            },
            onDragEnd: () => setDragging(null),
          }}
        />
      ))}
      {editable && (
        <ButtonBase
          onClick={() => setForm({})}
          sx={{
            width: 200,
            minHeight: 72,
            border: 1,
            borderStyle: 'dashed',
            borderColor: 'divider',
            borderRadius: 1,
            color: 'text.secondary',
            gap: 1,
          }}
          data-testid="gauge-add"
          aria-label="Add gauge"
        >
          <AddIcon />
          <Typography variant="body2">Add gauge</Typography>
        </ButtonBase>
      )}
      {form && (
        <GaugeForm
          projectId={projectId}
          dashId={dashboard.id}
          dashKind={dashKind}
          gauge={form.gauge}
          range={range}
          query={queryOf(form.gauge)}
          editable={editable}
          onClose={() => setForm(null)}
        />
      )}
    </Box>
  );
}
