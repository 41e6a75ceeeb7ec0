import { Box } from '@mui/material';
import type { StatusCode } from '@lantern/shared';

/** A span's status code; errors are red (spec tracing §2 Trace page). */
export function SpanStatus({ code, message }: { code: StatusCode; message?: string }) {
  const isError = code === 'error';
  return (
    <Box
      component="span"
      title={message || undefined}
      data-testid="span-status"
      data-status={code}
      sx={isError ? { color: 'error.main', fontWeight: 600 } : { color: 'text.secondary' }}
    >
      {code}
    </Box>
  );
}
