import { Box } from '@mui/material';
import { PALETTE } from '../../../../../components/charts/palette';

const SWATCHES = [...PALETTE, '#1976D2', '#D32F2F', '#388E3C', '#F57C00', '#7B1FA2', '#455A64'];

/**
 * A row of colour swatches (the chart palette and a few strong colours). `clearable`: clicking the
 * chosen swatch again clears it, back to the colour assigned by default.
 */
export function ColorSwatches({
  value,
  onChange,
  clearable = false,
  label = 'Color',
}: {
  value: string;
  onChange: (color: string) => void;
  clearable?: boolean;
  label?: string;
}) {
  return (
    <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }} role="group" aria-label={label}>
      {SWATCHES.map((c) => (
        <Box
          key={c}
          component="button"
          type="button"
          title={c}
          aria-label={c}
          aria-pressed={value === c}
          onClick={() => onChange(clearable && value === c ? '' : c)}
          sx={{
            width: 20,
            height: 20,
            borderRadius: '50%',
            bgcolor: c,
            border: 2,
            borderColor: value === c ? 'text.primary' : 'transparent',
            cursor: 'pointer',
            p: 0,
          }}
        />
      ))}
    </Box>
  );
}
