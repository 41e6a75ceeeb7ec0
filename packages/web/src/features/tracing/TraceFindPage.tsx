import RefreshIcon from '@mui/icons-material/Refresh';
import { Box, Button, CircularProgress, Typography } from '@mui/material';
import { Navigate, useParams } from 'react-router-dom';
import { isApiError } from '../../lib/api/apiClient';
import { paths } from '../../lib/routes/paths';
import { RequestError } from './RequestError';
import { useTraceSearch } from './tracingApi';
import { usePageTitle } from '../../components/shell/usePageTitle';

/**
 * Spec tracing §2 'Trace find page': resolves which project holds a trace and redirects there.
 * The lookup repeats on 'Try again' and whenever the trace id in the address changes (new query key).
 */
export function TraceFindPage() {
  const traceId = useParams().traceId ?? '';
  const search = useTraceSearch(traceId);
  usePageTitle('Find trace');

  if (search.data) {
    const { span } = search.data;
    const target = span.standalone
      ? paths.span(span.projectId, span.traceId, span.id)
      : paths.trace(span.projectId, span.traceId);
    return <Navigate to={target} replace />;
  }
  if (search.isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 10 }} data-testid="trace-find-loading">
        <CircularProgress />
      </Box>
    );
  }
  if (!isApiError(search.error, 404)) return <RequestError error={search.error} />;

  return (
    <Box sx={{ textAlign: 'center', py: 10 }} data-testid="trace-not-found">
      <Typography variant="h5" component="p">
        Trace <strong>{traceId}</strong> not found.
        <br />
        It may take up to <strong>30 seconds</strong> to process a trace.
      </Typography>
      <Button
        variant="contained"
        sx={{ mt: 3 }}
        startIcon={search.isFetching ? <CircularProgress size={16} color="inherit" /> : <RefreshIcon />}
        disabled={search.isFetching}
        onClick={() => void search.refetch()}
        data-testid="trace-find-retry"
      >
        Try again
      </Button>
    </Box>
  );
}
