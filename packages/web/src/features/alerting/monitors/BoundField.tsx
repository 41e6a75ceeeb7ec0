import { Stack, TextField, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/**
 * Min value / Max value (reference frontend: the unit as suffix, "Leave empty to disable", the
 * observed value); a typed value the unit scales is read back under the field ("= 6 GB").
 */
export function BoundField({
  which,
  value,
  onChange,
  error,
  unitSuffix,
  observed,
  reading,
}: {
  which: 'min' | 'max';
  value: string;
  onChange: (v: string) => void;
  error: string | undefined;
  unitSuffix: ReactNode;
  observed: string | undefined;
  /** The typed value in the column's unit when it reads as another number ("6 GB" for 6442450944 bytes). */
  reading?: string;
}) {
  return (
    <Stack sx={{ flex: 1, minWidth: 0 }}>
      <TextField
        size="small"
        label={`${which === 'min' ? 'Min' : 'Max'} value`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        error={Boolean(error)}
        helperText={error ?? (reading ? `= ${reading}` : 'Leave empty to disable')}
        slotProps={{
          input: { endAdornment: unitSuffix },
          htmlInput: { 'data-testid': `monitor-${which}`, inputMode: 'decimal' },
          formHelperText: { 'data-testid': `monitor-${which}-helper` } as object,
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
