import { Box, Stack, Tooltip, Typography } from '@mui/material';
import { formatDuration, formatPercents } from '@lantern/shared';
import { truncate } from '../../../lib/text/truncate';
import type { SystemShare } from './traceTimeline';

/** Time per system across the trace: legend with each share of self time, then one stacked bar. */
export function SpanSystemBar({ systems }: { systems: SystemShare[] }) {
  const total = systems.reduce((s, x) => s + x.duration, 0);
  const pct = (d: number) => (total === 0 ? 100 : (d / total) * 100);
  return (
    <Box data-testid="system-bar">
      <Stack
        direction="row"
        spacing={3}
        useFlexGap
        sx={{
          flexWrap: 'wrap',
          justifyContent: 'center',
          border: 1,
          borderColor: 'divider',
          borderBottom: 0,
          borderRadius: '4px 4px 0 0',
          px: 2,
          py: 1,
        }}
      >
        {systems.map((s) => (
          <Stack key={s.name} direction="row" spacing={1} sx={{ alignItems: 'center' }} data-testid="system-bar-item">
            <Box sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: s.color }} />
            <Typography variant="body2" title={s.name}>
              {truncate(s.name, 32)}
            </Typography>
            <Typography variant="body2" color="text.secondary" title={formatDuration(s.duration)}>
              {formatPercents(pct(s.duration))}
            </Typography>
          </Stack>
        ))}
      </Stack>
      <Box sx={{ display: 'flex', height: 14 }}>
        {systems.map((s) => (
          <Tooltip key={s.name} title={`${s.name} ${formatDuration(s.duration)}`}>
            <Box sx={{ width: `${pct(s.duration)}%`, bgcolor: s.color }} />
          </Tooltip>
        ))}
      </Box>
    </Box>
  );
}
