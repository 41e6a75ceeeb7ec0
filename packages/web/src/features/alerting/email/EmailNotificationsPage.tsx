import type { EmailSettings } from '@lantern/shared';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  Divider,
  FormControlLabel,
  Skeleton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useSnackbar } from '../../../components/feedback/SnackbarProvider';
import { PageToolbar } from '../../../components/PageToolbar';
import { useProjectIdParam } from '../../../lib/routes/useProjectIdParam';
import { useEmailSettings, useSaveEmailSettings } from './emailSettingsApi';
import { MatcherRows, type MatcherTestIds } from '../monitors/MatcherFields';
import { suggestionRange } from '../monitors/monitorFormRules';
import { EmailTestButton } from './EmailTestButton';
import { usePageTitle } from '../../../components/shell/usePageTitle';

type Matcher = EmailSettings['errorMatchers'][number];
const blank = (): Matcher => ({ attr: '', value: '' });

const EMAIL_MATCHER_IDS: MatcherTestIds = {
  row: 'email-matcher',
  attr: 'email-matcher-attr',
  op: 'email-matcher-op',
  value: 'email-matcher-value',
  remove: 'email-matcher-remove',
  add: 'email-matcher-add',
};

const FLAGS: [keyof Omit<EmailSettings, 'errorMatchers'>, string][] = [
  ['notifyOnMetrics', 'Notify on metric alerts via email'],
  ['notifyOnNewErrors', 'Notify on new errors via email'],
  ['notifyOnRecurringErrors', 'Notify on recurring errors via email'],
];

function SettingsForm({ projectId, initial, email }: { projectId: number; initial: EmailSettings; email: string }) {
  const [s, setS] = useState<EmailSettings>(() => ({
    ...initial,
    errorMatchers: initial.errorMatchers.length ? initial.errorMatchers : [blank()],
  }));
  // Attribute suggestions come from the spans of the last day, fixed when the page opens.
  const [range] = useState(() => suggestionRange(Date.now()));
  const save = useSaveEmailSettings(projectId);
  const snackbar = useSnackbar();

  const setMatcher = (i: number, m: Partial<Matcher>) =>
    setS((v) => ({ ...v, errorMatchers: v.errorMatchers.map((x, j) => (j === i ? { ...x, ...m } : x)) }));
  const removeMatcher = (i: number) =>
    setS((v) => ({
      ...v,
      errorMatchers: v.errorMatchers.length > 1 ? v.errorMatchers.filter((_x, j) => j !== i) : [blank()],
    }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(s, {
      onSuccess: (d) => {
        // Show what was kept: dropped empty rows disappear, one blank row stays to type into.
        setS({ ...d.channel, errorMatchers: d.channel.errorMatchers.length ? d.channel.errorMatchers : [blank()] });
        snackbar.notifySuccess('Email notification settings have been updated successfully');
      },
    });
  };

  return (
    <Box component="form" noValidate onSubmit={submit} data-testid="email-settings-form">
      <Stack spacing={2}>
        <TextField
          label="Your email"
          value={email}
          disabled
          slotProps={{ htmlInput: { 'data-testid': 'email-address' } }}
        />
        <Box>
          {FLAGS.map(([name, label]) => (
            <FormControlLabel
              key={name}
              sx={{ display: 'flex' }}
              control={
                <Checkbox
                  checked={s[name]}
                  onChange={(e) => setS((v) => ({ ...v, [name]: e.target.checked }))}
                  slotProps={{ input: { 'data-testid': `email-${name}` } as object }}
                />
              }
              label={label}
            />
          ))}
        </Box>
        <Box>
          <Typography variant="subtitle2">Only errors whose attributes match (all of them)</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
            Error e-mails are sent only when every condition holds for the error&apos;s span. Rows with an empty
            attribute or value are dropped on save.
          </Typography>
          <MatcherRows
            projectId={projectId}
            range={range}
            matchers={s.errorMatchers.map((m) => ({ ...m, op: '=' as const }))}
            onChange={(i, m) => setMatcher(i, { attr: m.attr, value: m.value })}
            onRemove={removeMatcher}
            onAdd={() => setS((v) => ({ ...v, errorMatchers: [...v.errorMatchers, blank()] }))}
            fixedOp
            testIds={EMAIL_MATCHER_IDS}
          />
        </Box>
        <Box>
          <Button type="submit" variant="contained" loading={save.isPending} data-testid="email-save">
            Save
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}

/** NotifChannelEmail (spec §2.12): the signed-in user's own alert e-mail settings for this project. */
export function EmailNotificationsPage() {
  const projectId = useProjectIdParam();
  const settings = useEmailSettings(projectId);

  usePageTitle('Email notifications');

  if (projectId === undefined) return null;
  return (
    <Stack spacing={1} sx={{ maxWidth: 600 }} data-testid="email-notifications">
      <PageToolbar title="Email notifications" />
      <Card variant="outlined">
        <CardContent>
          {settings.isPending ? (
            <Skeleton variant="rectangular" height={280} />
          ) : settings.error ? (
            <Alert severity="error" data-testid="email-settings-error">
              {settings.error.message}
            </Alert>
          ) : (
            <Stack spacing={2}>
              <Typography variant="body2" color="text.secondary">
                Lantern e-mails you about this project&apos;s alerts from monitors that notify everyone by email. Choose
                which of them you want.
              </Typography>
              {!settings.data.smtpEnabled && (
                <Alert severity="warning" data-testid="email-smtp-disabled">
                  E-mail is disabled on this server (<code>notifications.smtp.enabled</code> is off in lantern.yml), so
                  no alert e-mails are sent until an administrator configures SMTP. Your settings are kept for then.
                </Alert>
              )}
              <SettingsForm projectId={projectId} initial={settings.data.channel} email={settings.data.channel.email} />
              <Divider />
              <EmailTestButton
                projectId={projectId}
                email={settings.data.channel.email}
                smtpEnabled={settings.data.smtpEnabled}
              />
            </Stack>
          )}
        </CardContent>
      </Card>
    </Stack>
  );
}
