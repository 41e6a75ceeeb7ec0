import { Box, CircularProgress, Typography } from '@mui/material';
import type { GaugeLook } from '@lantern/shared';
import { useMemo } from 'react';
import { EChart } from '../../../../components/charts/EChart';
import { dialOption } from './gaugeLook';

/**
 * A gauge's value as its look asks (issue 41): `text` the formatted value or sentence, `stat` one big
 * number in the colour its thresholds give, `dial` a dial whose bands follow the thresholds with the
 * value written under its needle in that colour. `color` is the threshold colour of the value.
 */
export function GaugeFace({
  look,
  text,
  value,
  unit,
  color,
  base,
  placeholder,
}: {
  look: GaugeLook;
  /** The formatted value (undefined while loading). */
  text: string | undefined;
  value: number | null;
  unit: string;
  color: string;
  /** The colour below the first threshold. */
  base: string;
  /** Shown instead of the value (the form before a metric is picked). */
  placeholder?: string;
}) {
  const { display, min, max, thresholds } = look;
  const option = useMemo(
    () => dialOption({ min, max, thresholds }, value, unit, base),
    [min, max, thresholds, value, unit, base],
  );
  const shown = placeholder ?? text ?? <CircularProgress size={20} />;
  if (display === 'dial')
    return (
      <Box sx={{ position: 'relative', width: 180, height: 130 }} data-testid="gauge-dial">
        <EChart option={option} height={130} width={180} testId="gauge-dial-chart" />
        <Typography
          variant="h6"
          sx={{
            position: 'absolute',
            left: 0,
            right: 0,
            bottom: 0,
            textAlign: 'center',
            color,
            fontWeight: 600,
            fontVariantNumeric: 'tabular-nums',
            whiteSpace: 'nowrap',
          }}
          data-testid="gauge-value"
        >
          {shown}
        </Typography>
      </Box>
    );
  return (
    <Typography
      variant={display === 'stat' ? 'h3' : 'h5'}
      sx={{
        fontVariantNumeric: 'tabular-nums',
        whiteSpace: 'nowrap',
        ...(display === 'stat' ? { color, fontWeight: 600 } : {}),
      }}
      data-testid="gauge-value"
    >
      {shown}
    </Typography>
  );
}
