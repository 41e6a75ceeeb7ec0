import { Box, Skeleton, Typography } from '@mui/material';
import { useId, useMemo } from 'react';
import { eventRateOption, pctileOption, rateOption, type PctileData } from './chartOptions';
import { EChart } from './EChart';

/**
 * Durations (p50/p90 shown, p99/max hidden) over the span rate and error rate, with a shared
 * crosshair; events (no durations) get a bar chart of events per minute (reference frontend §3.7).
 */
export function PctileChart({ data, loading }: { data: Partial<PctileData> | undefined; loading?: boolean }) {
  const group = useId();
  const d = useMemo<PctileData | undefined>(() => (data?.time ? { ...data, time: data.time } : undefined), [data]);
  const options = useMemo(
    () =>
      d ? { pctile: d.p50 ? pctileOption(d) : undefined, rate: d.p50 ? rateOption(d) : eventRateOption(d) } : undefined,
    [d],
  );
  if (loading && !options) return <Skeleton variant="rectangular" height={220} data-testid="pctile-loading" />;
  if (!options) {
    return (
      <Box sx={{ py: 3, textAlign: 'center' }} data-testid="pctile-chart">
        <Typography color="text.secondary">There is no data for this period.</Typography>
      </Box>
    );
  }
  return (
    <Box data-testid="pctile-chart">
      {options.pctile && <EChart option={options.pctile} height={110} group={group} testId="pctile-durations" />}
      <EChart option={options.rate} height={options.pctile ? 110 : 160} group={group} testId="pctile-rate" />
    </Box>
  );
}
