import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import { Box, Button, IconButton, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { GaugeLook, MAX_GAUGE_THRESHOLDS, type GaugeThreshold } from '@lantern/shared';
import { useState } from 'react';
import { ColorSwatches } from '../grid/forms/ColorSwatches';

/** Amber, then red, then the others: the colours new steps take in turn (Grafana's green/amber/red). */
const STEP_COLORS = ['#F57C00', '#D32F2F', '#7B1FA2', '#455A64'];

/** The look's problems as the form shows them (the server says the same). */
export function lookErrors(look: GaugeLook): { range?: string; thresholds?: string } {
  const steps = GaugeLook.shape.thresholds.safeParse(look.thresholds);
  return {
    range: look.display === 'dial' && !(look.min < look.max) ? 'Min must be below max' : undefined,
    thresholds: steps.success ? undefined : steps.error.issues[0].message,
  };
}

/** A number field that keeps what is typed while it is not a number yet ("-", "1e"). */
function NumberField({
  label,
  value,
  onChange,
  testId,
  error,
}: {
  label: string;
  value: number;
  onChange: (v: number) => void;
  testId: string;
  error?: boolean;
}) {
  const [text, setText] = useState(String(value));
  const shown = Number(text) === value ? text : String(value);
  return (
    <TextField
      size="small"
      type="number"
      label={label}
      value={shown}
      error={error}
      onChange={(e) => {
        setText(e.target.value);
        const n = Number(e.target.value);
        if (e.target.value.trim() !== '' && Number.isFinite(n)) onChange(n);
      }}
      sx={{ width: 120 }}
      slotProps={{ htmlInput: { 'data-testid': testId } }}
    />
  );
}

/**
 * How the gauge shows its value (issue 41): Text, Stat or Dial, a dial's min and max, and thresholds
 * (ascending steps, each from its value up in its colour; below the first, the gauge's own colour).
 */
export function GaugeLookFields({
  look,
  onChange,
  submitted,
}: {
  look: GaugeLook;
  onChange: (look: GaugeLook) => void;
  submitted: boolean;
}) {
  const errs = lookErrors(look);
  const set = (patch: Partial<GaugeLook>) => onChange({ ...look, ...patch });
  const setStep = (i: number, patch: Partial<GaugeThreshold>) =>
    set({ thresholds: look.thresholds.map((t, j) => (j === i ? { ...t, ...patch } : t)) });
  const addStep = () => {
    const last = look.thresholds[look.thresholds.length - 1];
    const value = last ? last.value + 10 : look.display === 'dial' ? look.min + (look.max - look.min) * 0.8 : 80;
    set({
      thresholds: [...look.thresholds, { value, color: STEP_COLORS[look.thresholds.length % STEP_COLORS.length] }],
    });
  };
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }} data-testid="gauge-look">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="body2">Show as</Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={look.display}
          onChange={(_, v: GaugeLook['display'] | null) => v && set({ display: v })}
          aria-label="Show as"
        >
          <ToggleButton value="text" data-testid="gauge-display-text">
            Text
          </ToggleButton>
          <ToggleButton value="stat" data-testid="gauge-display-stat">
            Stat
          </ToggleButton>
          <ToggleButton value="dial" data-testid="gauge-display-dial">
            Dial
          </ToggleButton>
        </ToggleButtonGroup>
        {look.display === 'dial' && (
          <>
            <NumberField
              label="Min"
              value={look.min}
              onChange={(min) => set({ min })}
              testId="gauge-min"
              error={!!errs.range}
            />
            <NumberField
              label="Max"
              value={look.max}
              onChange={(max) => set({ max })}
              testId="gauge-max"
              error={!!errs.range}
            />
            {errs.range && (
              <Typography variant="caption" color="error">
                {errs.range}
              </Typography>
            )}
          </>
        )}
      </Box>
      <Typography variant="body2" color="text.secondary">
        Thresholds: from each value up the gauge takes its colour (the value, the border and the dial's band); below the
        first, the column's colour.
      </Typography>
      {look.thresholds.map((t, i) => (
        <Box key={i} sx={{ display: 'flex', alignItems: 'center', gap: 1 }} data-testid="gauge-threshold">
          <NumberField
            label="From"
            value={t.value}
            onChange={(value) => setStep(i, { value })}
            testId={`gauge-threshold-value-${i}`}
            error={submitted && !!errs.thresholds}
          />
          <ColorSwatches
            value={t.color}
            onChange={(color) => setStep(i, { color })}
            label={`Threshold ${i + 1} colour`}
          />
          <IconButton
            size="small"
            aria-label="Remove threshold"
            onClick={() => set({ thresholds: look.thresholds.filter((_, j) => j !== i) })}
          >
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Box>
      ))}
      {errs.thresholds && (
        <Typography variant="caption" color="error" data-testid="gauge-threshold-error">
          {errs.thresholds}
        </Typography>
      )}
      <Box>
        <Button
          size="small"
          startIcon={<AddIcon />}
          onClick={addStep}
          disabled={look.thresholds.length >= MAX_GAUGE_THRESHOLDS}
          data-testid="gauge-threshold-add"
        >
          Add threshold
        </Button>
      </Box>
    </Box>
  );
}
