import { Box, MenuItem, TextField, Typography } from '@mui/material';
import type { ColumnMap, MetricColumn } from '@lantern/shared';
import { UNITS, unitLabel } from '../units';
import { ColorSwatches } from './ColorSwatches';

/**
 * One unit picker per value column of the preview's answer (spec §3 Units), and with `withColor` a
 * colour per column (spec §3 column map: colours from the palette for columns without one); changes
 * go to the column map.
 */
export function ColumnUnits({
  columns,
  value,
  onChange,
  withColor = false,
}: {
  columns: MetricColumn[];
  value: ColumnMap;
  onChange: (m: ColumnMap) => void;
  withColor?: boolean;
}) {
  const values = columns.filter((c) => !c.isGroup);
  if (values.length === 0) return null;
  const unitOf = (c: MetricColumn) => value[c.name]?.unit ?? c.unit ?? '';
  const set = (c: MetricColumn, patch: { unit?: string; color?: string }) =>
    onChange({ ...value, [c.name]: { unit: unitOf(c), color: value[c.name]?.color ?? '', ...patch } });
  return (
    <Box data-testid="column-units">
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {withColor ? 'Column units and colours' : 'Column units'}
      </Typography>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        {values.map((c) => (
          <Box key={c.name} sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }} data-testid="column-setting">
            <TextField
              select
              size="small"
              label={c.name}
              value={unitOf(c)}
              onChange={(e) => set(c, { unit: e.target.value })}
              // '' is a unit too ('none', a count or a rate of one): shown, with the label above it,
              // instead of an empty box with the column name sitting in it like a placeholder.
              slotProps={{
                select: { displayEmpty: true, renderValue: (v) => unitLabel(String(v)) },
                inputLabel: { shrink: true },
              }}
              data-testid="column-unit"
            >
              {[...new Set([...UNITS, c.unit ?? ''])].map((u) => (
                <MenuItem key={u} value={u}>
                  {unitLabel(u)}
                </MenuItem>
              ))}
            </TextField>
            {withColor && (
              <ColorSwatches
                value={value[c.name]?.color ?? ''}
                onChange={(color) => set(c, { color })}
                clearable
                label={`Colour of ${c.name}`}
              />
            )}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
