import { Stack, TextField, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** Min value / Max value (reference frontend: the unit as suffix, "Leave empty to disable", the observed value). */
export function BoundField({
  which,
  value,
  onChange,
  error,
  unitSuffix,
  observed,
}: {
  which: 'min' | 'max';
  value: string;
  onChange: (v: string) => void;
  error: string | undefined;
  unitSuffix: ReactNode;
  observed: string | undefined;
}) {
  return (
    <Stack sx={{ flex: 1, minWidth: 0 }}>
      <TextField
        size="small"
        label={`${which === 'min' ? 'Min' : 'Max'} value`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        error={Boolean(error)}
        helperText={error ?? 'Leave empty to disable'}
        slotProps={{
          input: { endAdornment: unitSuffix },
          htmlInput: { 'data-testid': `monitor-${which}`, inputMode: 'decimal' },
        }}
      />
      {observed !== undefined && (
        <Typography
          variant="caption"
          color="text.secondary"
          sx={{ mx: 1.75 }}
          data-testid={`monitor-observed-${which}`}
        >
          Observed {which}: {observed}
        </Typography>
      )}
    </Stack>
  );
}
