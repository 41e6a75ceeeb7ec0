import { LinearProgress, Skeleton } from '@mui/material';
import { useParams } from 'react-router-dom';
import { useProjectIdParam } from '../../lib/routes/useProjectIdParam';
import { RequestError } from './RequestError';
import { SpanCard } from './span/SpanCard';
import { useSpan } from './tracingApi';
import { usePageTitle } from '../../components/shell/usePageTitle';

/** Spec tracing §2 SpanShow: the span card with a loading bar. */
export function SpanPage() {
  const projectId = useProjectIdParam();
  const { traceId = '', spanId = '' } = useParams();
  const { data, error, isPending, isFetching } = useSpan(projectId, traceId, spanId);

  usePageTitle(data?.span.displayName);

  if (error) return <RequestError error={error} />;
  if (isPending || projectId === undefined) return <Skeleton variant="rectangular" height={300} />;
  return (
    <div data-testid="span-page">
      {isFetching && <LinearProgress sx={{ mb: 1 }} />}
      <SpanCard span={data.span} />
    </div>
  );
}
