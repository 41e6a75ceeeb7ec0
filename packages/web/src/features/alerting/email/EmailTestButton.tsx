import SendIcon from '@mui/icons-material/Send';
import { Alert, Box, Button, Stack, Tooltip } from '@mui/material';
import { useSendTestEmail } from './emailSettingsApi';

/** Sends the sample alert e-mail to the user's own address and shows what the SMTP server said. */
export function EmailTestButton({
  projectId,
  email,
  smtpEnabled,
}: {
  projectId: number;
  email: string;
  smtpEnabled: boolean;
}) {
  const test = useSendTestEmail(projectId);
  const result = test.data?.result;
  return (
    <Stack spacing={1.5}>
      <Box>
        <Tooltip title={smtpEnabled ? '' : 'SMTP is disabled in the config'}>
          <span>
            <Button
              variant="outlined"
              startIcon={<SendIcon />}
              disabled={!smtpEnabled}
              loading={test.isPending}
              onClick={() => test.mutate()}
              data-testid="email-test-send"
            >
              Send test e-mail
            </Button>
          </span>
        </Tooltip>
      </Box>
      {result && (
        <Alert severity={result.ok ? 'success' : 'error'} data-testid="email-test-result" data-ok={String(result.ok)}>
          {result.ok ? `Sent to ${email}: the SMTP server answered "${result.body}"` : `Not sent: ${result.error}`}
        </Alert>
      )}
      {test.error && (
        <Alert severity="error" data-testid="email-test-result" data-ok="false">
          {test.error.message}
        </Alert>
      )}
    </Stack>
  );
}
