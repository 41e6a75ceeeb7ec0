import { Alert, Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { CodeBlock } from '../../../components/CodeBlock';

/** The message a generic webhook receives (spec §3 "Webhook message"), as an example and a field table. */
const EXAMPLE = JSON.stringify(
  {
    id: '1676471814931265794',
    eventName: 'created',
    payload: { team: 'checkout' },
    createdAt: '2026-02-15T14:36:54.931000000Z',
    alert: {
      id: '123',
      url: 'https://lantern.example.com/alerting/1/alerts/123',
      name: 'POST /api/checkout: card declined',
      type: 'error',
      state: 'open',
      createdAt: '2026-02-15T14:36:54.931000000Z',
    },
  },
  null,
  2,
);

const FIELDS: [string, string][] = [
  ['id', 'The alert event id, a string. The same event may arrive twice after a restart: use it to drop duplicates.'],
  [
    'eventName',
    'created, recurring (the error happened again, or the metric is still firing) or state-changed (closed or reopened).',
  ],
  ['payload', 'Your optional JSON payload with its {{...}} variables filled in, or null.'],
  ['createdAt', 'When the event happened (RFC 3339 with nanoseconds).'],
  ['alert.id, alert.url', 'The alert and the address of its page in Lantern.'],
  ['alert.name', 'The alert name: the error message or the monitor name.'],
  ['alert.type', 'metric or error.'],
  ['alert.state', 'open or closed.'],
  ['alert.createdAt', 'When the alert was first opened.'],
];

export function WebhookHelp() {
  return (
    <Box data-testid="webhook-help">
      <Alert severity="info" sx={{ mb: 2 }} data-testid="webhook-retry-help">
        The endpoint must answer with a 2xx status, otherwise the request is retried with a growing delay (16 attempts
        at most).
      </Alert>
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        Example message
      </Typography>
      <CodeBlock code={EXAMPLE} testId="webhook-example" />
      <Table size="small" sx={{ mt: 2 }}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ width: 180 }}>Field</TableCell>
            <TableCell>Description</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {FIELDS.map(([name, text]) => (
            <TableRow key={name}>
              <TableCell sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 }}>
                {name}
              </TableCell>
              <TableCell>{text}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
