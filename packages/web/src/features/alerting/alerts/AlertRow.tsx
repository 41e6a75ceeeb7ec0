import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import { Box, Checkbox, Chip, Stack, TableCell, TableRow, Typography } from '@mui/material';
import type { Alert } from '@lantern/shared';
import { formatRelative } from '../../../lib/format/dateTime';
import { isErrorParams, isMetricParams, metricTrigger, occurrences } from './alertText';

export const OPEN_COLOR = '#D32F2F';
export const CLOSED_COLOR = '#388E3C';

/** The state icon: open red, closed green (reference frontend §1.3.14). */
export function AlertStateIcon({ state }: { state: string }) {
  return state === 'open' ? (
    <ErrorOutlineIcon sx={{ color: OPEN_COLOR }} titleAccess="open" />
  ) : (
    <CheckCircleOutlineIcon sx={{ color: CLOSED_COLOR }} titleAccess="closed" />
  );
}

/** Chips that select a facet value: type, then the service and host the alert is about. */
const CHIP_KEYS = ['service.name', 'host.name', 'deployment.environment'];

/**
 * One alert of the list (80 px): checkbox, state icon and name, facet chips, created / updated
 * times, and on the right the metric trigger or the error's occurrences; a closed metric alert says
 * when it closed, its trigger below as history ('Fired when ...').
 */
export function AlertRow({
  alert,
  selected,
  onToggle,
  onOpen,
  onChip,
  now,
}: {
  alert: Alert;
  selected: boolean;
  onToggle: () => void;
  onOpen: () => void;
  onChip: (key: string, value: string) => void;
  now: number;
}) {
  const chips = [
    { key: 'alert.type', value: alert.type },
    ...CHIP_KEYS.filter((k) => alert.attrs[k]).map((k) => ({ key: k, value: alert.attrs[k] })),
  ];
  const right = isMetricParams(alert)
    ? metricTrigger(alert.params)
    : isErrorParams(alert)
      ? occurrences(alert.params)
      : '';
  const closedMetric = alert.state === 'closed' && alert.type === 'metric' && right !== '';
  return (
    <TableRow
      hover
      selected={selected}
      sx={{ height: 80, cursor: 'pointer' }}
      onClick={onOpen}
      data-testid="alert-row"
      data-alert-id={alert.id}
      data-state={alert.state}
    >
      <TableCell padding="checkbox" onClick={(e) => e.stopPropagation()}>
        <Checkbox
          checked={selected}
          onChange={onToggle}
          slotProps={{ input: { 'aria-label': `Select ${alert.name}` } }}
          data-testid="alert-row-checkbox"
        />
      </TableCell>
      <TableCell>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <AlertStateIcon state={alert.state} />
          <Typography sx={{ fontWeight: 500, wordBreak: 'break-word' }} data-testid="alert-row-name">
            {alert.name}
          </Typography>
        </Stack>
        <Stack direction="row" spacing={1} sx={{ mt: 0.5, alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
          {chips.map((c) => (
            <Chip
              key={c.key}
              size="small"
              label={c.value}
              title={c.key}
              onClick={(e) => {
                e.stopPropagation();
                onChip(c.key, c.value);
              }}
            />
          ))}
          <Typography variant="body2" color="text.secondary">
            Created {formatRelative(new Date(alert.createdAt), now)}
            {alert.updatedAt !== alert.createdAt && (
              <> &middot; Updated {formatRelative(new Date(alert.updatedAt), now)}</>
            )}
          </Typography>
        </Stack>
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap', width: 220 }}>
        {closedMetric ? (
          // A closed metric alert is no longer firing: when it closed, and its trigger as history.
          <>
            <Box sx={{ color: CLOSED_COLOR }} data-testid="alert-row-closed">
              Closed {formatRelative(new Date(alert.updatedAt), now)}
            </Box>
            <Typography variant="body2" color="text.secondary" data-testid="alert-row-trigger">
              Fired when {right}
            </Typography>
          </>
        ) : (
          <Box
            component="span"
            sx={{ color: alert.type === 'metric' ? OPEN_COLOR : 'text.primary' }}
            data-testid="alert-row-trigger"
          >
            {right}
          </Box>
        )}
      </TableCell>
    </TableRow>
  );
}
