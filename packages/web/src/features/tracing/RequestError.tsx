import { Box, Typography } from '@mui/material';
import { ApiError } from '../../lib/api/apiClient';

/** Spec tracing §2: on error the trace and span pages show the status as a large title and the message. */
export function RequestError({ error }: { error: Error }) {
  const status = error instanceof ApiError && error.status > 0 ? String(error.status) : 'Error';
  return (
    <Box sx={{ bgcolor: '#FAFAFA', py: 10, px: 2, textAlign: 'center', borderRadius: 1 }} data-testid="request-error">
      <Typography variant="h1" component="h1" sx={{ fontWeight: 300 }} data-testid="request-error-status">
        {status}
      </Typography>
      <Typography variant="h5" component="p" sx={{ mt: 2 }} data-testid="request-error-message">
        {error.message}
      </Typography>
    </Box>
  );
}
