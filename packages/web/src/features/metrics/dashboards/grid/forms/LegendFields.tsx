import { Box, Checkbox, FormControlLabel, MenuItem, TextField, Typography } from '@mui/material';
import type { ChartLegendConfig } from '../../../../../components/charts/GridChart';
import type { LegendValue } from '../../../../../components/charts/ChartLegend';

const VALUES: LegendValue[] = ['avg', 'last', 'min', 'max'];

/** Chart legend options: type none / list / table, placement bottom / right, values avg / last / min / max. */
export function LegendFields({
  value,
  onChange,
}: {
  value: ChartLegendConfig;
  onChange: (v: ChartLegendConfig) => void;
}) {
  return (
    <Box data-testid="legend-fields">
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        Chart legend
      </Typography>
      <Box sx={{ display: 'flex', gap: 1 }}>
        <TextField
          select
          size="small"
          label="Legend"
          value={value.type}
          onChange={(e) => onChange({ ...value, type: e.target.value as ChartLegendConfig['type'] })}
          sx={{ flex: 1 }}
          data-testid="legend-type"
        >
          <MenuItem value="none">None</MenuItem>
          <MenuItem value="list">List</MenuItem>
          <MenuItem value="table">Table</MenuItem>
        </TextField>
        <TextField
          select
          size="small"
          label="Placement"
          value={value.placement}
          disabled={value.type === 'none'}
          onChange={(e) => onChange({ ...value, placement: e.target.value as ChartLegendConfig['placement'] })}
          sx={{ flex: 1 }}
        >
          <MenuItem value="bottom">Bottom</MenuItem>
          <MenuItem value="right">Right</MenuItem>
        </TextField>
      </Box>
      <Box sx={{ display: 'flex' }}>
        {VALUES.map((v) => (
          <FormControlLabel
            key={v}
            disabled={value.type === 'none'}
            control={
              <Checkbox
                size="small"
                checked={value.values.includes(v)}
                onChange={(e) =>
                  onChange({
                    ...value,
                    values: e.target.checked
                      ? VALUES.filter((x) => x === v || value.values.includes(x))
                      : value.values.filter((x) => x !== v),
                  })
                }
              />
            }
            label={v[0].toUpperCase() + v.slice(1)}
          />
        ))}
      </Box>
    </Box>
  );
}
