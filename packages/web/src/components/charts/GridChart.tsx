import { Box, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { usePager } from '../Pager';
import { ListLegend, TableLegend, type LegendValue } from './ChartLegend';
import { hasValue, metricChartOption, type ChartKind, type Series } from './chartOptions';
import { EChart } from './EChart';
import { sortLegendSeries, type LegendSort } from './legendSort';
import { assignColors } from './palette';

export interface SeriesStyle {
  color: string;
  opacity: number;
  lineWidth: number;
  symbol: string;
  symbolSize: number;
}

export interface ChartLegendConfig {
  type: 'none' | 'list' | 'table';
  placement: 'bottom' | 'right';
  values: LegendValue[];
}

/** The plot's least height above a legend that takes the rest of the panel. */
const MIN_PLOT = 140;

export const DEFAULT_LEGEND: ChartLegendConfig = { type: 'list', placement: 'bottom', values: ['avg'] };
export const DEFAULT_STYLE: SeriesStyle = { color: '', opacity: 15, lineWidth: 2, symbol: 'none', symbolSize: 4 };

/** Applies per-series styles (colour, fill opacity, line width, symbol) to a metricChartOption. */
function styled(
  option: Record<string, unknown>,
  series: Series[],
  styles: Record<string, Partial<SeriesStyle>>,
  kind: ChartKind,
) {
  const hasArea = kind === 'area' || kind === 'stacked-area';
  const isBar = kind === 'bar' || kind === 'stacked-bar';
  const list = option.series as Record<string, unknown>[];
  return {
    ...option,
    series: list.map((s, i) => {
      const st = { ...DEFAULT_STYLE, ...styles[series[i].name] };
      if (isBar) return s;
      // A series with one or two points draws no line: show its points.
      const sparse = series[i].values.filter((v) => v !== null).length < 3;
      return {
        ...s,
        lineStyle: { width: st.lineWidth },
        // With no symbol chosen, a series keeps the dots of its lone values (lineSeriesData).
        symbol: st.symbol !== 'none' ? st.symbol : sparse ? 'circle' : s.symbol,
        showSymbol: st.symbol !== 'none' || sparse || s.showSymbol === true,
        symbolSize: st.symbolSize,
        ...(hasArea ? { areaStyle: { opacity: st.opacity / 100 } } : {}),
      };
    }),
  };
}

/**
 * A dashboard chart (reference frontend §3.4–3.5): the kinds line / area / bar / stacked, one y
 * axis per unit, per-series styles, and a list or table legend below or to the right with avg / last /
 * min / max. Hovering a legend entry emphasises its series; clicking one isolates it (click again to
 * show all); with a table legend only the current page is plotted. A table legend starts in the
 * order given and sorts by a click on a header (legendSort, as the monitor preview): the order is
 * applied before paging and colouring, so the page plotted is the top of the sort and its colours
 * follow the rows.
 */
export function GridChart({
  time,
  series,
  kind = 'line',
  height,
  legend = DEFAULT_LEGEND,
  styles = {},
  legendMaxLength = 40,
  testId = 'grid-chart',
}: {
  time: string[];
  series: Series[];
  kind?: ChartKind;
  height: number;
  legend?: ChartLegendConfig;
  styles?: Record<string, Partial<SeriesStyle>>;
  legendMaxLength?: number;
  testId?: string;
}) {
  const [sort, setSort] = useState<LegendSort | undefined>();
  const sorted = legend.type === 'table' && sort !== undefined;
  const colored = useMemo(() => {
    const order = sorted ? sortLegendSeries(series, sort) : series;
    const colors = assignColors(order.map((s) => styles[s.name]?.color || s.color));
    return order.map((s, i) => ({ ...s, color: colors[i] }));
  }, [series, styles, sorted, sort]);
  const [isolated, setIsolated] = useState<string | undefined>();
  const [hovered, setHovered] = useState<string | undefined>();
  const pager = usePager(colored.length, 9);
  const bottom = legend.type !== 'none' && legend.placement === 'bottom';

  const visible = legend.type === 'table' ? colored.slice(pager.start, pager.end) : colored;
  const hidden = useMemo(
    () => new Set(isolated === undefined ? [] : colored.filter((s) => s.name !== isolated).map((s) => s.name)),
    [colored, isolated],
  );
  const plotted = useMemo(() => visible.filter((s) => !hidden.has(s.name)), [visible, hidden]);
  const option = useMemo(
    () => styled(metricChartOption(time, plotted, { kind }), plotted, styles, kind),
    [time, plotted, kind, styles],
  );

  // No series, or only series with nothing measured in the range (a metric that stopped reporting).
  if (time.length === 0 || !series.some(hasValue)) {
    return (
      <Box
        sx={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
        data-testid={testId}
        data-empty
      >
        <Typography variant="h5" sx={{ color: '#E0E0E0' }}>
          NO DATA
        </Typography>
      </Box>
    );
  }
  const toggle = (name: string) => setIsolated((cur) => (cur === name ? undefined : name));
  const props = {
    series: colored,
    values: legend.values,
    hidden,
    onToggle: toggle,
    onHover: setHovered,
    maxLength: legendMaxLength,
  };
  const legendBody =
    legend.type === 'list' ? (
      <ListLegend {...props} vertical={!bottom} />
    ) : legend.type === 'table' ? (
      <TableLegend
        {...props}
        pager={pager}
        sort={sort}
        onSort={(next) => {
          setSort(next);
          // The top of the new order: the page that is plotted.
          pager.setPage(1);
        }}
      />
    ) : null;
  return (
    <Box
      data-testid={testId}
      data-series={plotted.length}
      sx={{ display: 'flex', flexDirection: bottom ? 'column' : 'row', height, overflow: 'hidden' }}
    >
      {/* The plot takes what the legend leaves (at least 140 px): sized by the layout, not measured. */}
      <Box sx={{ flex: '1 1 0', minWidth: 0, minHeight: bottom ? MIN_PLOT : 0 }}>
        <EChart option={option} height="100%" highlight={hovered} />
      </Box>
      {legendBody && (
        <Box
          sx={
            bottom
              ? { flexShrink: 0, maxHeight: Math.max(0, height - MIN_PLOT), overflowY: 'auto' }
              : legend.type === 'table'
                ? // A table on the right takes the width of its columns (up to half the panel), so its
                  // value columns are not cut behind a sideways scroll of a fixed 35%.
                  { flexShrink: 0, width: 'max-content', maxWidth: '50%', height, overflowY: 'auto' }
                : { flexShrink: 0, width: '35%', maxWidth: 360, height, overflowY: 'auto' }
          }
        >
          {legendBody}
        </Box>
      )}
    </Box>
  );
}
