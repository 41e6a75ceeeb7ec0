import {
  Alert,
  Box,
  Card,
  CardContent,
  Checkbox,
  FormControlLabel,
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
import { MatcherRows, type MatcherTestIds } from './MatcherFields';
import { blankMatcher, isBlank, suggestionRange, withMatcherRow } from './monitorFormRules';
import { isMonitorNotFound, useMonitor, useSaveMonitor } from './monitorsApi';
import { NotifyFields } from './NotifyFields';
import { usePageTitle } from '../../../components/shell/usePageTitle';

const MONITOR_MATCHER_IDS: MatcherTestIds = {
  row: 'matcher-row',
  attr: 'matcher-attr',
  op: 'matcher-op',
  value: 'matcher-value',
  remove: 'matcher-remove',
  add: 'matcher-add',
};

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
              <MatcherRows
                projectId={projectId}
                range={range}
                matchers={matchers}
                onChange={setAt}
                onRemove={(i) => setMatchers(withMatcherRow(matchers.filter((_, j) => j !== i)))}
                // The last blank row stays: removing it would put it straight back.
                canRemove={(i) => !(isBlank(matchers[i]) && blanks === 1)}
                onAdd={() => setMatchers([...matchers, blankMatcher()])}
                canAdd={!full}
                errors={(m) =>
                  submitted && half(m)
                    ? {
                        attr: m.attr.trim() ? undefined : 'Attribute is required',
                        value: m.value.trim() ? undefined : 'Value is required',
                      }
                    : {}
                }
                testIds={MONITOR_MATCHER_IDS}
              />
              {full && (
                <Typography variant="caption" color="text.secondary" data-testid="matchers-limit">
                  At most {MAX_MONITOR_MATCHERS} matchers are allowed.
                </Typography>
              )}
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
