import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { formatMetric } from '../../lib/format/number';
import { truncateMiddle } from '../../lib/text/truncate';
import { Pager, usePager } from '../Pager';
import { hasValue, legendValues, metricChartOption, type ChartKind, type Series } from './chartOptions';
import { EChart } from './EChart';
import { assignColors } from './palette';

const LEGEND_PAGE = 9;

/**
 * A timeseries chart with its legend table (avg, last, min, max per series; reference frontend
 * §3.5). Only the series on the legend's current page are plotted; clicking a name hides or shows it,
 * hovering a legend row (or `highlight`, from a table of the caller's) emphasises its line.
 */
export function MetricChart({
  time,
  series,
  kind = 'line',
  height = 200,
  legend = true,
  legendMaxLength = 40,
  highlight,
  testId,
}: {
  time: string[];
  series: Series[];
  kind?: ChartKind;
  height?: number;
  legend?: boolean;
  legendMaxLength?: number;
  highlight?: string;
  testId?: string;
}) {
  const colored = useMemo(() => {
    const colors = assignColors(series.map((s) => s.color));
    return series.map((s, i) => ({ ...s, color: colors[i] }));
  }, [series]);
  const pager = usePager(colored.length, LEGEND_PAGE);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [hovered, setHovered] = useState<string | undefined>();
  // Memoised so that re-renders (a hovered legend row) keep the same option, and the emphasis.
  const onPage = useMemo(() => colored.slice(pager.start, pager.end), [colored, pager.start, pager.end]);
  const plotted = useMemo(() => onPage.filter((s) => !hidden.has(s.name)), [onPage, hidden]);
  const option = useMemo(() => metricChartOption(time, plotted, { kind }), [time, plotted, kind]);

  // No series, or only series with nothing measured in the range (a metric that stopped reporting).
  if (time.length === 0 || !series.some(hasValue)) {
    return (
      <Box sx={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center' }} data-testid={testId}>
        <Typography variant="h5" sx={{ color: '#E0E0E0' }}>
          NO DATA
        </Typography>
      </Box>
    );
  }
  return (
    <Box data-testid={testId}>
      <EChart option={option} height={height} highlight={hovered ?? highlight} />
      {legend && (
        <>
          <Table size="small" data-testid="legend-table">
            <TableHead>
              <TableRow>
                <TableCell>metric</TableCell>
                {(['avg', 'last', 'min', 'max'] as const).map((v) => (
                  <TableCell key={v} align="right">
                    {v}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {onPage.map((s) => {
                const values = legendValues(s.values);
                const off = hidden.has(s.name);
                return (
                  <TableRow
                    key={s.name}
                    hover
                    sx={{ '& td': { py: '3px' } }}
                    onMouseEnter={() => setHovered(s.name)}
                    onMouseLeave={() => setHovered(undefined)}
                  >
                    <TableCell
                      sx={{ cursor: 'pointer', opacity: off ? 0.5 : 1 }}
                      title={s.name}
                      onClick={() =>
                        setHidden((prev) => {
                          const next = new Set(prev);
                          if (!next.delete(s.name)) next.add(s.name);
                          return next;
                        })
                      }
                      data-testid="legend-name"
                    >
                      <Box
                        component="span"
                        sx={{
                          display: 'inline-block',
                          width: 10,
                          height: 10,
                          borderRadius: '50%',
                          bgcolor: off ? 'grey.400' : s.color,
                          mr: 1,
                        }}
                      />
                      {truncateMiddle(s.name, legendMaxLength)}
                    </TableCell>
                    {(['avg', 'last', 'min', 'max'] as const).map((v) => (
                      <TableCell key={v} align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                        {formatMetric(values[v], s.unit)}
                      </TableCell>
                    ))}
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
          {colored.length > LEGEND_PAGE && <Pager pager={pager} />}
        </>
      )}
    </Box>
  );
}
