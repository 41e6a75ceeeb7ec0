import CloseIcon from '@mui/icons-material/Close';
import { Box, Button, Card, Chip, Skeleton, Stack, Typography } from '@mui/material';
import { useCallback } from 'react';
import { HeatmapChart } from '../../../../components/charts/HeatmapChart';
import { addParts } from '../../query/defaultQueries';
import type { RangeQuery } from '../../tracingApi';
import type { ExploreState } from '../useExploreState';
import { ERRORS_SELECTION, heatmapSelection } from './selection';
import { useDurationHeatmap } from './whatChangedApi';
import { WhatChangedPanel } from './WhatChangedPanel';

/** Taller than a dashboard's heatmap: the rectangle is drawn on it. */
const HEIGHT = 240;

/**
 * Explore spans, Timeseries tab (issue 38): the spans' durations over time as a heatmap; a rectangle
 * dragged on it, or Errors, selects spans (`selection` in the address), and What changed lists the
 * attribute values that set them apart from the other spans of the query.
 */
export function WhatChangedCard({
  projectId,
  range,
  state,
}: {
  projectId: number;
  range: RangeQuery;
  state: ExploreState;
}) {
  const heatmap = useDurationHeatmap(projectId, range);
  const data = heatmap.data?.heatmap;
  const { setSelection, setQuery, query } = state;
  const onSelect = useCallback(
    (cells: { x: [number, number]; y: [number, number] }) => {
      if (data && data.xAxis.length && data.yAxis.length) setSelection(heatmapSelection(data, cells.x, cells.y));
    },
    [data, setSelection],
  );
  return (
    <Card variant="outlined" data-testid="what-changed-card">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', bgcolor: '#E1F5FE', px: 2, minHeight: 40 }}>
        <Typography variant="h6" sx={{ fontSize: '1.1rem', flexGrow: 1 }}>
          Durations and what changed
        </Typography>
        <Button
          size="small"
          variant={state.selection === ERRORS_SELECTION ? 'contained' : 'outlined'}
          color="error"
          onClick={() => setSelection(ERRORS_SELECTION)}
          data-testid="what-changed-errors"
        >
          Errors
        </Button>
      </Stack>
      <Box sx={{ p: 2 }}>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Drag a rectangle over the heatmap (time × duration) to see which attribute values set those spans apart from
          the others, or pick Errors.
        </Typography>
        {heatmap.isPending ? (
          <Skeleton variant="rectangular" height={HEIGHT} />
        ) : (
          <HeatmapChart data={data} unit="nanoseconds" height={HEIGHT} testId="duration-heatmap" onSelect={onSelect} />
        )}
        {state.selection && (
          <Box sx={{ mt: 2 }}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
              <Typography variant="subtitle1" sx={{ fontWeight: 500 }}>
                What changed
              </Typography>
              <Chip
                size="small"
                label={state.selection}
                onDelete={() => setSelection(null)}
                deleteIcon={<CloseIcon data-testid="what-changed-clear" />}
                data-testid="what-changed-selection"
                sx={{ maxWidth: '100%' }}
              />
            </Stack>
            <WhatChangedPanel
              projectId={projectId}
              range={range}
              selection={state.selection}
              onFilter={(part) => setQuery(addParts(query, part))}
            />
          </Box>
        )}
      </Box>
    </Card>
  );
}
