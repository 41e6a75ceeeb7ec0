import { Box, MenuItem, TextField, Typography } from '@mui/material';
import type { ColumnMap, MetricColumn } from '@lantern/shared';
import { UNITS, unitLabel } from '../units';

/** One unit picker per value column of the preview's answer (spec §3 Units); changes go to the column map. */
export function ColumnUnits({
  columns,
  value,
  onChange,
}: {
  columns: MetricColumn[];
  value: ColumnMap;
  onChange: (m: ColumnMap) => void;
}) {
  const values = columns.filter((c) => !c.isGroup);
  if (values.length === 0) return null;
  return (
    <Box data-testid="column-units">
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        Column units
      </Typography>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        {values.map((c) => (
          <TextField
            key={c.name}
            select
            size="small"
            label={c.name}
            value={value[c.name]?.unit ?? c.unit ?? ''}
            onChange={(e) =>
              onChange({ ...value, [c.name]: { unit: e.target.value, color: value[c.name]?.color ?? '' } })
            }
            slotProps={{ select: { renderValue: (v) => unitLabel(String(v)) } }}
            data-testid="column-unit"
          >
            {[...new Set([...UNITS, c.unit ?? ''])].map((u) => (
              <MenuItem key={u} value={u}>
                {unitLabel(u)}
              </MenuItem>
            ))}
          </TextField>
        ))}
      </Box>
    </Box>
  );
}
