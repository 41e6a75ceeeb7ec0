import { LinearProgress, Skeleton } from '@mui/material';
import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { useProjectIdParam } from '../../lib/routes/useProjectIdParam';
import { truncate } from '../../lib/text/truncate';
import { RequestError } from './RequestError';
import { SpanCard } from './span/SpanCard';
import { useSpan } from './tracingApi';

/** Spec tracing §2 SpanShow: the span card with a loading bar. */
export function SpanPage() {
  const projectId = useProjectIdParam();
  const { traceId = '', spanId = '' } = useParams();
  const { data, error, isPending, isFetching } = useSpan(projectId, traceId, spanId);

  useEffect(() => {
    if (data) document.title = `${truncate(data.span.displayName, 60)} | Lantern`;
  }, [data]);

  if (error) return <RequestError error={error} />;
  if (isPending || projectId === undefined) return <Skeleton variant="rectangular" height={300} />;
  return (
    <div data-testid="span-page">
      {isFetching && <LinearProgress sx={{ mb: 1 }} />}
      <SpanCard span={data.span} />
    </div>
  );
}
