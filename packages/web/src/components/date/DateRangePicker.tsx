import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import RefreshIcon from '@mui/icons-material/Refresh';
import { Box, Button, IconButton, Menu, MenuItem, Stack, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import { formatDateTimeFull, formatDateTimeShort } from '../../lib/format/dateTime';
import { gteOf, periodText, periodsUpTo } from '../../lib/time/dateRange';
import { AutoRefresh } from './AutoRefreshPicker';
import { CustomRangeMenu } from './CustomRangeMenu';
import type { DateRangeState } from './useDateRange';

/** "1 hour ▾" and the "Last ..." list up to the page's limit. */
export function PeriodPickerMenu({ state, maxDays }: { state: DateRangeState; maxDays?: number }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button
        size="small"
        color="inherit"
        endIcon={<ArrowDropDownIcon />}
        onClick={(e) => setAnchor(e.currentTarget)}
        data-testid="period-picker"
      >
        {periodText(state.range.duration)}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {periodsUpTo(maxDays ?? state.maxDays ?? 30).map((p) => (
          <MenuItem
            key={p.ms}
            dense
            selected={p.ms === state.range.duration}
            onClick={() => {
              setAnchor(null);
              state.changeDuration(p.ms);
            }}
            data-testid="period-option"
          >
            Last {p.text}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

/**
 * The toolbar date range picker (spec platform §2.13): previous/next period arrows with their
 * enable rules, the calendar menu (Last N units, or from/to), the period menu, Reload, auto-refresh
 * (Reload on a timer, which moves a live range forward) and Now. A dialog over a page leaves
 * auto-refresh to the page's picker (`autoRefresh={false}`): its Reload refetches the dialog too.
 */
export function DateRangePicker({ state, autoRefresh = true }: { state: DateRangeState; autoRefresh?: boolean }) {
  const [calendar, setCalendar] = useState<HTMLElement | null>(null);
  const { range } = state;
  return (
    <Stack
      direction="row"
      spacing={0.5}
      sx={{ alignItems: 'center', flexWrap: 'nowrap' }}
      data-testid="date-range-picker"
      data-now={range.isNow || undefined}
    >
      <Tooltip title="Previous period">
        <span>
          <IconButton
            size="small"
            disabled={!state.hasPrev}
            onClick={state.prev}
            aria-label="Previous period"
            data-testid="date-prev"
          >
            <ChevronLeftIcon />
          </IconButton>
        </span>
      </Tooltip>
      {range.isNow ? (
        <IconButton
          size="small"
          onClick={(e) => setCalendar(e.currentTarget)}
          aria-label="Choose dates"
          data-testid="date-calendar"
        >
          <CalendarMonthIcon fontSize="small" />
        </IconButton>
      ) : (
        <Button
          size="small"
          color="inherit"
          startIcon={<CalendarMonthIcon />}
          onClick={(e) => setCalendar(e.currentTarget)}
          data-testid="date-calendar"
        >
          <Typography
            component="span"
            variant="body2"
            title={formatDateTimeFull(new Date(gteOf(range)))}
            data-testid="date-from-text"
          >
            {formatDateTimeShort(new Date(gteOf(range)))}
          </Typography>
          <Box component="span" sx={{ mx: 0.5 }}>
            -
          </Box>
          <Typography component="span" variant="body2" title={formatDateTimeFull(new Date(range.lt))}>
            {formatDateTimeShort(new Date(range.lt))}
          </Typography>
        </Button>
      )}
      <CustomRangeMenu anchor={calendar} onClose={() => setCalendar(null)} state={state} />
      <PeriodPickerMenu state={state} />
      <Tooltip title="Next period">
        <span>
          <IconButton
            size="small"
            disabled={!state.hasNext}
            onClick={state.next}
            aria-label="Next period"
            data-testid="date-next"
          >
            <ChevronRightIcon />
          </IconButton>
        </span>
      </Tooltip>
      <Button
        size="small"
        variant="outlined"
        startIcon={<RefreshIcon />}
        onClick={state.reload}
        data-testid="date-reload"
      >
        Reload
      </Button>
      {autoRefresh && <AutoRefresh onRefresh={state.reload} />}
      {!range.isNow && (
        <Button size="small" variant="outlined" onClick={state.reloadNow} data-testid="date-now">
          Now
        </Button>
      )}
    </Stack>
  );
}

/** Trace, span and alert pages: the anchor time, a period around it, and Reload. */
export function FixedDateRangePicker({
  state,
  anchor,
  maxDays = 10,
}: {
  state: DateRangeState;
  anchor: number;
  maxDays?: number;
}) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} data-testid="fixed-date-range">
      <Typography variant="subtitle2" title={formatDateTimeFull(new Date(anchor))}>
        {formatDateTimeShort(new Date(anchor))}
      </Typography>
      <PeriodPickerMenu state={state} maxDays={maxDays} />
      <Button
        size="small"
        variant="outlined"
        startIcon={<RefreshIcon />}
        onClick={state.reload}
        data-testid="date-reload"
      >
        Reload
      </Button>
    </Stack>
  );
}
