import { Box, Button, Divider, MenuItem, Popover, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import {
  UNIT_MS,
  combineInputs,
  fixedRange,
  formatDayInput,
  formatTimeInput,
  gteOf,
  parseDayInput,
  parseTimeInput,
  splitDuration,
  type DurationUnit,
} from '../../lib/time/dateRange';
import type { DateRangeState } from './useDateRange';

/** A dd-MM-yyyy day field and an H:mm time field; invalid text shows the hint as the message (spec platform §5). */
function DateTimeInputs({
  label,
  day,
  time,
  onDay,
  onTime,
  testId,
}: {
  label: string;
  day: string;
  time: string;
  onDay: (v: string) => void;
  onTime: (v: string) => void;
  testId: string;
}) {
  const dayOk = parseDayInput(day) !== undefined;
  const timeOk = parseTimeInput(time) !== undefined;
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
      <Typography variant="body2" sx={{ width: 72, pt: 1 }}>
        {label}
      </Typography>
      <TextField
        size="small"
        value={day}
        onChange={(e) => onDay(e.target.value)}
        error={!dayOk}
        helperText="dd-mm-yyyy"
        sx={{ width: 130 }}
        slotProps={{ htmlInput: { 'data-testid': `${testId}-day` } }}
      />
      <TextField
        size="small"
        value={time}
        onChange={(e) => onTime(e.target.value)}
        error={!timeOk}
        helperText="24 hours"
        sx={{ width: 85 }}
        slotProps={{ htmlInput: { 'data-testid': `${testId}-time` } }}
      />
    </Stack>
  );
}

/** The calendar menu: "Last [N] [minutes|hours|days] Apply", or, a custom From/To range. */
export function CustomRangeMenu({
  anchor,
  onClose,
  state,
}: {
  anchor: HTMLElement | null;
  onClose: () => void;
  state: DateRangeState;
}) {
  const { range } = state;
  return (
    <Popover
      open={anchor !== null}
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
    >
      {/* Mounted while the menu is open (and again when the range changes): its fields start from the range. */}
      <CustomRangeForm key={`${range.isNow}:${range.duration}:${range.lt}`} onClose={onClose} state={state} />
    </Popover>
  );
}

function CustomRangeForm({ onClose, state }: { onClose: () => void; state: DateRangeState }) {
  const { range } = state;
  const [split] = useState(() => splitDuration(range.duration));
  const [amount, setAmount] = useState(String(split.amount));
  const [unit, setUnit] = useState<DurationUnit>(split.unit);
  const [fromDay, setFromDay] = useState(() => formatDayInput(gteOf(range)));
  const [fromTime, setFromTime] = useState(() => formatTimeInput(gteOf(range)));
  const [toDay, setToDay] = useState(() => formatDayInput(range.lt));
  const [toTime, setToTime] = useState(() => formatTimeInput(range.lt));

  const durationMs = Number(amount) * UNIT_MS[unit];
  const from = combineInputs(fromDay, fromTime);
  const to = combineInputs(toDay, toTime);

  // Changing "From" moves "To" to keep the current duration.
  const moveTo = (day: string, time: string) => {
    const start = combineInputs(day, time);
    if (start === undefined) return;
    setToDay(formatDayInput(start + range.duration));
    setToTime(formatTimeInput(start + range.duration));
  };

  return (
    <Box sx={{ p: 2, width: 380 }} data-testid="date-range-menu">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography variant="body2">Last</Typography>
        <TextField
          size="small"
          type="number"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          sx={{ width: 78 }}
          slotProps={{ htmlInput: { min: 1, 'data-testid': 'custom-amount' } }}
        />
        <TextField
          select
          size="small"
          value={unit}
          onChange={(e) => setUnit(e.target.value as DurationUnit)}
          sx={{ width: 118 }}
          slotProps={{ htmlInput: { 'data-testid': 'custom-unit' } }}
        >
          <MenuItem value="minutes">minutes</MenuItem>
          <MenuItem value="hours">hours</MenuItem>
          <MenuItem value="days">days</MenuItem>
        </TextField>
        <Button
          variant="contained"
          size="small"
          disabled={!(durationMs > 0)}
          onClick={() => {
            state.changeDuration(durationMs);
            onClose();
          }}
          data-testid="custom-duration-apply"
        >
          Apply
        </Button>
      </Stack>
      <Divider sx={{ my: 2 }}>or</Divider>
      <Stack spacing={1}>
        <DateTimeInputs
          label="From date"
          day={fromDay}
          time={fromTime}
          onDay={(v) => {
            setFromDay(v);
            moveTo(v, fromTime);
          }}
          onTime={(v) => {
            setFromTime(v);
            moveTo(fromDay, v);
          }}
          testId="custom-from"
        />
        <DateTimeInputs
          label="To date"
          day={toDay}
          time={toTime}
          onDay={setToDay}
          onTime={setToTime}
          testId="custom-to"
        />
        <Box>
          <Button
            variant="contained"
            size="small"
            disabled={from === undefined || to === undefined || from >= to}
            onClick={() => {
              state.change(fixedRange(from!, to!));
              onClose();
            }}
            data-testid="custom-range-apply"
          >
            Apply
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
