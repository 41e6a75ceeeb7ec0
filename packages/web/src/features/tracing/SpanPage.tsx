import { Breadcrumbs, Card, CardContent, Link, Skeleton, Stack, Typography } from '@mui/material';
import { useEffect } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { useProjectIdParam } from '../../lib/routes/useProjectIdParam';
import { paths } from '../../lib/routes/paths';
import { truncate } from '../../lib/text/truncate';
import { RequestError } from './RequestError';
import { SpanAttrsTable } from './SpanAttrsTable';
import { SpanHeader } from './SpanHeader';
import { useSpan } from './tracingApi';

/** Spec tracing §2 SpanShow, first cut: breadcrumbs, header and attributes (the span card tabs come later). */
export function SpanPage() {
  const projectId = useProjectIdParam();
  const { traceId = '', spanId = '' } = useParams();
  const { data, error, isPending } = useSpan(projectId, traceId, spanId);

  useEffect(() => {
    if (data) document.title = `${truncate(data.span.displayName, 60)} | Lantern`;
  }, [data]);

  if (error) return <RequestError error={error} />;
  if (isPending || projectId === undefined) return <Skeleton variant="rectangular" height={300} />;
  const { span } = data;

  return (
    <Stack spacing={2} data-testid="span-page">
      <Breadcrumbs separator=">">
        <Link component={RouterLink} to={paths.spanGroups(projectId, { system: span.system })} underline="hover">
          {span.system}
        </Link>
        <Typography color="text.secondary">{truncate(span.displayName, 40)}</Typography>
        {!span.standalone && span.traceId && (
          <Link component={RouterLink} to={paths.trace(projectId, span.traceId)} underline="hover" data-testid="span-trace-link">
            {span.traceId}
          </Link>
        )}
        <Typography color="text.primary">Span</Typography>
      </Breadcrumbs>
      <Card variant="outlined">
        <CardContent>
          <SpanHeader span={span} />
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            Attributes
          </Typography>
          <SpanAttrsTable attrs={span.attrs} />
        </CardContent>
      </Card>
    </Stack>
  );
}
