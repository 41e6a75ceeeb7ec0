import { Box, Typography } from '@mui/material';
import { useEffect, useMemo, useRef, useState } from 'react';
import { EChart } from './EChart';
import { heatmapCellSize, heatmapHeight, heatmapOption, type HeatmapData } from './heatmapOption';

/**
 * A histogram metric as an ECharts heatmap (reference frontend §3.7): one cell per time bucket and
 * value bin, darker for more occurrences; the cell size follows the container width (spec §4);
 * 'NO DATA' when no bucket has a count.
 */
export function HeatmapChart({
  data,
  unit,
  height,
  testId = 'heatmap',
}: {
  data: HeatmapData | undefined;
  unit: string;
  height?: number;
  testId?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current!;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    setWidth(el.clientWidth);
    return () => observer.disconnect();
  }, []);
  const size = heatmapCellSize(width);
  const option = useMemo(() => (data ? heatmapOption(data, unit, size) : undefined), [data, unit, size]);
  const empty = !data || data.data.length === 0;
  const h = height ?? (data ? heatmapHeight(data, size) : 200);
  return (
    <Box ref={ref} data-testid={testId} data-empty={empty || undefined} data-unit={unit}>
      {empty || !option ? (
        <Box sx={{ height: h, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          <Typography variant="h5" sx={{ color: '#E0E0E0' }}>
            NO DATA
          </Typography>
        </Box>
      ) : (
        <EChart option={option} height={h} />
      )}
    </Box>
  );
}
