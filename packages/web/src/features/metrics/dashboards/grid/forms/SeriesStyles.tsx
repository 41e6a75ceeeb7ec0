import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Box,
  Button,
  MenuItem,
  Slider,
  TextField,
  Typography,
} from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import type { ChartKind } from '../../../../../components/charts/chartOptions';
import { DEFAULT_STYLE, type SeriesStyle } from '../../../../../components/charts/GridChart';
import { assignColors } from '../../../../../components/charts/palette';
import { ColorSwatches } from './ColorSwatches';

const SYMBOLS = ['none', 'circle', 'rect', 'roundRect', 'triangle', 'diamond', 'pin', 'arrow'];

/** Per-series style (spec §3 Timeseries style): colour, fill opacity, line width, symbol and its size. */
export function SeriesStyles({
  names,
  kind,
  value,
  onChange,
}: {
  names: string[];
  kind: ChartKind;
  value: Record<string, SeriesStyle>;
  onChange: (v: Record<string, SeriesStyle>) => void;
}) {
  if (names.length === 0) return null;
  const set = (name: string, patch: Partial<SeriesStyle>) =>
    onChange({ ...value, [name]: { ...DEFAULT_STYLE, ...value[name], ...patch } });
  const reset = (name: string) => {
    const next = { ...value };
    delete next[name];
    onChange(next);
  };
  const colors = assignColors(names.map((n) => value[n]?.color));
  const isBar = kind === 'bar' || kind === 'stacked-bar';
  const hasArea = kind === 'area' || kind === 'stacked-area';
  return (
    <Box data-testid="series-styles">
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        Timeseries styles
      </Typography>
      {names.slice(0, 20).map((name, i) => {
        const st = { ...DEFAULT_STYLE, ...value[name] };
        return (
          <Accordion key={name} disableGutters variant="outlined" slotProps={{ transition: { unmountOnExit: true } }}>
            <AccordionSummary
              expandIcon={<ExpandMoreIcon />}
              sx={{
                minHeight: 36,
                '& .MuiAccordionSummary-content': { my: 0.5, alignItems: 'center', gap: 1, minWidth: 0 },
              }}
            >
              <Box sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: st.color || colors[i], flex: 'none' }} />
              <Typography variant="body2" noWrap title={name}>
                {name}
              </Typography>
            </AccordionSummary>
            <AccordionDetails sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
              <ColorSwatches value={st.color} onChange={(color) => set(name, { color })} />
              {hasArea && (
                <Box>
                  <Typography variant="caption">Fill opacity {st.opacity}%</Typography>
                  <Slider
                    size="small"
                    min={0}
                    max={100}
                    value={st.opacity}
                    onChange={(_, v) => set(name, { opacity: v })}
                  />
                </Box>
              )}
              {!isBar && (
                <Box>
                  <Typography variant="caption">Line width {st.lineWidth}</Typography>
                  <Slider
                    size="small"
                    min={1}
                    max={10}
                    value={st.lineWidth}
                    onChange={(_, v) => set(name, { lineWidth: v })}
                  />
                </Box>
              )}
              {!isBar && (
                <Box sx={{ display: 'flex', gap: 1 }}>
                  <TextField
                    select
                    size="small"
                    label="Symbol"
                    value={st.symbol}
                    onChange={(e) => set(name, { symbol: e.target.value })}
                    sx={{ flex: 1 }}
                  >
                    {SYMBOLS.map((s) => (
                      <MenuItem key={s} value={s}>
                        {s}
                      </MenuItem>
                    ))}
                  </TextField>
                  <TextField
                    size="small"
                    type="number"
                    label="Symbol size"
                    value={st.symbolSize}
                    onChange={(e) => set(name, { symbolSize: Math.min(16, Math.max(1, Number(e.target.value) || 1)) })}
                    sx={{ width: 120 }}
                  />
                </Box>
              )}
              <Box>
                <Button size="small" onClick={() => reset(name)}>
                  Reset to defaults
                </Button>
              </Box>
            </AccordionDetails>
          </Accordion>
        );
      })}
    </Box>
  );
}
