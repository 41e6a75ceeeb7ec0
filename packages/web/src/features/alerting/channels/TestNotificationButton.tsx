import type { ChannelTestResult, NotifChannel } from '@lantern/shared';
import SendIcon from '@mui/icons-material/Send';
import { Alert, AlertTitle, Box, Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTestChannel } from './channelsApi';

function TestResult({ result }: { result: ChannelTestResult }) {
  const answer = result.status === null ? 'no answer' : `HTTP ${result.status}`;
  return (
    <Alert severity={result.ok ? 'success' : 'error'} data-testid="channel-test-result" data-ok={String(result.ok)}>
      <AlertTitle data-testid="channel-test-title">
        {result.ok
          ? `Delivered: the receiver answered ${answer} in ${result.durationMs} ms`
          : `Not delivered (${answer})`}
      </AlertTitle>
      {!result.ok && <Box data-testid="channel-test-error">{result.error}</Box>}
      {result.body && (
        <Box
          component="pre"
          data-testid="channel-test-body"
          sx={{
            m: 0,
            mt: 1,
            whiteSpace: 'pre-wrap',
            wordBreak: 'break-all',
            fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
            fontSize: 12,
          }}
        >
          {result.body}
        </Box>
      )}
    </Alert>
  );
}

/**
 * Sends a sample alert through the channel now (the real delivery code, SSRF guard included) and
 * shows what the receiver answered. Works on paused channels too: it is the way to check a fix.
 * It sends the saved channel: while the form has unsaved edits it waits for a save, rather than
 * report "Delivered" for a URL other than the one on the screen.
 */
export function TestNotificationButton({
  projectId,
  channel,
  unsaved = false,
}: {
  projectId: number;
  channel: NotifChannel;
  unsaved?: boolean;
}) {
  const test = useTestChannel(projectId);
  const [result, setResult] = useState<ChannelTestResult | null>(null);
  const send = () => {
    setResult(null);
    test.mutate(channel.id, { onSuccess: (d) => setResult(d.result) });
  };
  return (
    <Stack spacing={1.5} data-testid="channel-test">
      <Box>
        <Button
          variant="outlined"
          startIcon={<SendIcon />}
          onClick={send}
          loading={test.isPending}
          disabled={unsaved}
          data-testid="channel-test-send"
        >
          Send test notification
        </Button>
      </Box>
      {unsaved && (
        <Typography variant="caption" color="text.secondary" data-testid="channel-test-unsaved">
          The test sends the saved channel: save your changes to test them.
        </Typography>
      )}
      {result && !unsaved && <TestResult result={result} />}
      {test.error && (
        <Alert severity="error" data-testid="channel-test-result" data-ok="false">
          {test.error.message}
        </Alert>
      )}
    </Stack>
  );
}
