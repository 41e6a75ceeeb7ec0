import AddIcon from '@mui/icons-material/Add';
import CloseIcon from '@mui/icons-material/Close';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  FormControlLabel,
  IconButton,
  MenuItem,
  Skeleton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { MAX_MONITOR_MATCHERS, type ErrorMatcher, type Monitor } from '@lantern/shared';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { NotFoundPage } from '../../../app/NotFoundPage';
import { DateRangePicker } from '../../../components/date/DateRangePicker';
import { useDateRange } from '../../../components/date/useDateRange';
import { paths } from '../../../lib/routes/paths';
import { useProjectIdParam } from '../../../lib/routes/useProjectIdParam';
import { MonitorFormActions } from './MonitorFormActions';
import { MonitorHeader } from './MonitorHeader';
import { MatcherAttrField, MatcherValueField } from './MatcherFields';
import { blankMatcher, isBlank, suggestionRange, withMatcherRow } from './monitorFormRules';
import { isMonitorNotFound, useMonitor, useSaveMonitor } from './monitorsApi';
import { NotifyFields } from './NotifyFields';
import { usePageTitle } from '../../../components/shell/usePageTitle';

/** The edit page's date range (spec platform §2.10): up to 1 day, synced with the address. */
function ErrorMonitorRange() {
  const range = useDateRange({ maxDays: 1 });
  return <DateRangePicker state={range} />;
}

/** Spec platform §2.10: the error monitor form (new at monitors/new-error, edit at monitors/:id/error). */
export function MonitorErrorPage() {
  const projectId = useProjectIdParam();
  const { monitorId } = useParams();
  const existing = useMonitor(projectId ?? 0, monitorId);
  usePageTitle(monitorId ? (existing.data?.monitor.name ?? 'Error monitor') : 'New error monitor');
  if (projectId === undefined) return <NotFoundPage />;
  // An unknown id, or the id of a metric monitor: no error monitor here.
  if (monitorId && (isMonitorNotFound(existing.error) || (existing.data && existing.data.monitor.type !== 'error')))
    return <NotFoundPage />;
  if (monitorId && existing.error) return <Alert severity="error">{existing.error.message}</Alert>;
  if (monitorId && existing.isPending) return <Skeleton variant="rectangular" height={300} />;
  return <ErrorMonitorForm key={monitorId ?? 'new'} projectId={projectId} monitor={existing.data?.monitor} />;
}

function ErrorMonitorForm({ projectId, monitor }: { projectId: number; monitor?: Monitor }) {
  const init = monitor?.type === 'error' && 'matchers' in monitor.params ? monitor.params : undefined;
  const [name, setName] = useState(monitor?.name ?? '');
  const [onNew, setOnNew] = useState(init?.notifyOnNewErrors ?? true);
  const [onRecurring, setOnRecurring] = useState(init?.notifyOnRecurringErrors ?? true);
  const [matchers, setMatchers] = useState<ErrorMatcher[]>(withMatcherRow(init?.matchers ?? []));
  const [everyone, setEveryone] = useState(monitor?.notifyEveryoneByEmail ?? true);
  const [channelIds, setChannelIds] = useState<number[]>(monitor?.channelIds ?? []);
  const [submitted, setSubmitted] = useState(false);
  // Suggestions come from the spans of the last day, fixed when the form opens.
  const [range] = useState(() => suggestionRange(Date.now()));
  const save = useSaveMonitor(projectId, 'error');
  const navigate = useNavigate();
  const nameErr = submitted && !name.trim() ? 'Field is required' : undefined;
  const blanks = matchers.filter(isBlank).length;
  // The server takes at most MAX_MONITOR_MATCHERS (spec platform §5): no row is added past it.
  const full = matchers.length >= MAX_MONITOR_MATCHERS;
  const setAt = (i: number, m: ErrorMatcher) => setMatchers(withMatcherRow(matchers.map((x, j) => (j === i ? m : x))));

  // A row with an attribute but no value, or a value but no attribute, is not saved as nothing.
  const half = (m: ErrorMatcher) => !isBlank(m) && (!m.attr.trim() || !m.value.trim());
  const onSave = () => {
    setSubmitted(true);
    if (!name.trim() || matchers.some(half)) return;
    const body = {
      name,
      notifyEveryoneByEmail: everyone,
      channelIds,
      params: {
        notifyOnNewErrors: onNew,
        notifyOnRecurringErrors: onRecurring,
        matchers: matchers.filter((m) => m.attr && m.value),
      },
    };
    save.mutate({ id: monitor?.id, body }, { onSuccess: () => void navigate(paths.monitors(projectId)) });
  };

  return (
    <Stack spacing={2} data-testid="error-monitor-form">
      <Stack direction="row" useFlexGap spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <MonitorHeader projectId={projectId} type="error" monitor={monitor} />
        <Box sx={{ flexGrow: 1 }} />
        {monitor && <ErrorMonitorRange />}
      </Stack>
      <Card variant="outlined" sx={{ maxWidth: 900 }}>
        <CardContent>
          <Stack spacing={2} component="form" onSubmit={(e) => (e.preventDefault(), onSave())}>
            <TextField
              size="small"
              label="Monitor name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={Boolean(nameErr)}
              helperText={nameErr}
              slotProps={{ htmlInput: { 'data-testid': 'monitor-name-input' } }}
            />
            <Stack direction="row" spacing={2}>
              <FormControlLabel
                control={
                  <Checkbox checked={onNew} onChange={(e) => setOnNew(e.target.checked)} data-testid="notify-new" />
                }
                label="Notify on new errors"
              />
              <FormControlLabel
                control={
                  <Checkbox
                    checked={onRecurring}
                    onChange={(e) => setOnRecurring(e.target.checked)}
                    data-testid="notify-recurring"
                  />
                }
                label="Notify on recurring errors"
              />
            </Stack>
            <div>
              <Typography variant="subtitle2" gutterBottom>
                Only errors whose attributes match (all of them)
              </Typography>
              <Stack spacing={1}>
                {matchers.map((m, i) => (
                  // Fields line up at the top: a field's error message below it does not move the others.
                  <Stack
                    key={i}
                    direction="row"
                    spacing={1}
                    sx={{ alignItems: 'flex-start' }}
                    data-testid="matcher-row"
                  >
                    {/* The first row keeps the AND's room empty, so every row's fields line up (the
                        Stack's spacing overrides a margin on its first child). */}
                    <Typography
                      variant="caption"
                      color="text.secondary"
                      sx={{ width: 32, flexShrink: 0, lineHeight: '40px' }}
                    >
                      {i > 0 ? 'AND' : ''}
                    </Typography>
                    <MatcherAttrField
                      projectId={projectId}
                      range={range}
                      value={m.attr}
                      onChange={(attr) => setAt(i, { ...m, attr })}
                      error={submitted && half(m) && !m.attr.trim() ? 'Attribute is required' : undefined}
                    />
                    <TextField
                      select
                      size="small"
                      value={m.op}
                      onChange={(e) => setAt(i, { ...m, op: e.target.value as '=' | '!=' })}
                      sx={{ width: 80 }}
                      slotProps={{ htmlInput: { 'data-testid': 'matcher-op' } }}
                    >
                      <MenuItem value="=">=</MenuItem>
                      <MenuItem value="!=">!=</MenuItem>
                    </TextField>
                    <MatcherValueField
                      projectId={projectId}
                      range={range}
                      attr={m.attr}
                      value={m.value}
                      onChange={(value) => setAt(i, { ...m, value })}
                      error={submitted && half(m) && !m.value.trim() ? 'Value is required' : undefined}
                    />
                    <IconButton
                      size="small"
                      aria-label="Remove matcher"
                      // The last blank row stays: removing it would put it straight back.
                      disabled={isBlank(m) && blanks === 1}
                      onClick={() => setMatchers(withMatcherRow(matchers.filter((_, j) => j !== i)))}
                      data-testid="matcher-remove"
                      sx={{ mt: 0.5 }}
                    >
                      <CloseIcon fontSize="small" />
                    </IconButton>
                  </Stack>
                ))}
                <Button
                  size="small"
                  startIcon={<AddIcon />}
                  disabled={full}
                  onClick={() => setMatchers([...matchers, blankMatcher()])}
                  sx={{ alignSelf: 'flex-start' }}
                >
                  Add a matcher
                </Button>
                {full && (
                  <Typography variant="caption" color="text.secondary" data-testid="matchers-limit">
                    At most {MAX_MONITOR_MATCHERS} matchers are allowed.
                  </Typography>
                )}
              </Stack>
            </div>
            <NotifyFields
              projectId={projectId}
              everyone={everyone}
              onEveryone={setEveryone}
              channelIds={channelIds}
              onChannelIds={setChannelIds}
            />
            <MonitorFormActions
              projectId={projectId}
              isNew={!monitor}
              saving={save.isPending}
              error={save.error?.message}
            />
          </Stack>
        </CardContent>
      </Card>
    </Stack>
  );
}
