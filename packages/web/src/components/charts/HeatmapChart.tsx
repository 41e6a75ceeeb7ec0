import { Box, Typography } from '@mui/material';
import type { ECharts } from 'echarts/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { EChart } from './EChart';
import { heatmapCellSize, heatmapHeight, heatmapOption, type HeatmapData } from './heatmapOption';

/**
 * A histogram metric as an ECharts heatmap (reference frontend §3.7): one cell per time bucket and
 * value bin, darker for more occurrences; the cell size follows the container width (spec §4);
 * 'NO DATA' when no bucket has a count. With `onSelect`, dragging draws a rectangle over the cells
 * (ECharts brush) and hands over the cells it covers: index ranges [first, last] of x and y.
 */
export function HeatmapChart({
  data,
  unit,
  height,
  testId = 'heatmap',
  onSelect,
}: {
  data: HeatmapData | undefined;
  unit: string;
  height?: number;
  testId?: string;
  onSelect?: (cells: { x: [number, number]; y: [number, number] }) => void;
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
  const brushable = onSelect !== undefined;
  const option = useMemo(
    () => (data ? { ...heatmapOption(data, unit, size), ...(brushable ? BRUSH : {}) } : undefined),
    [data, unit, size, brushable],
  );
  const selectRef = useRef(onSelect);
  useEffect(() => {
    selectRef.current = onSelect;
  }, [onSelect]);
  const onChart = useCallback((chart: ECharts) => {
    // Dragging draws a rectangle without a toolbox button first.
    chart.dispatchAction({
      type: 'takeGlobalCursor',
      key: 'brush',
      brushOption: { brushType: 'rect', brushMode: 'single' },
    });
    const onEnd = (e: unknown) => {
      const area = (e as { areas?: { coordRange?: [[number, number], [number, number]] }[] }).areas?.[0];
      if (area?.coordRange) selectRef.current?.({ x: area.coordRange[0], y: area.coordRange[1] });
    };
    chart.on('brushEnd', onEnd);
    return () => chart.off('brushEnd', onEnd);
  }, []);
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
        <EChart option={option} height={h} onChart={brushable ? onChart : undefined} />
      )}
    </Box>
  );
}

/** The rectangle brush over the category axes of the cells (the first x axis and the y axis). */
const BRUSH = {
  brush: {
    xAxisIndex: 0,
    yAxisIndex: 0,
    brushType: 'rect',
    brushMode: 'single',
    transformable: false,
    brushStyle: { borderWidth: 1, color: 'rgba(255, 152, 0, 0.15)', borderColor: '#FB8C00' },
    outOfBrush: { colorAlpha: 0.35 },
  },
};
