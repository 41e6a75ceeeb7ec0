import { MenuItem, TextField } from '@mui/material';
import { UNITS, unitLabel } from '../units';

/** The unit picker of a panel whose values carry one unit (heatmap, PromQL); a unit not offered stays listed. */
export function UnitField({
  label,
  value,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  onChange: (u: string) => void;
  testId: string;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      slotProps={{ select: { renderValue: (v) => unitLabel(String(v)) } }}
      data-testid={testId}
    >
      {[...new Set([...UNITS, value])].map((u) => (
        <MenuItem key={u} value={u}>
          {unitLabel(u)}
        </MenuItem>
      ))}
    </TextField>
  );
}
