import { Box, Breadcrumbs, Card, CardContent, Link, Skeleton, Stack, Typography } from '@mui/material';
import { useEffect } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { useProjectIdParam } from '../../lib/routes/useProjectIdParam';
import { paths } from '../../lib/routes/paths';
import { truncate } from '../../lib/text/truncate';
import { RequestError } from './RequestError';
import { SpanHeader } from './SpanHeader';
import { SpanTree } from './SpanTree';
import { useTrace } from './tracingApi';

function TraceSkeleton() {
  return (
    <Stack spacing={2} data-testid="trace-loading">
      <Skeleton variant="text" width="40%" height={48} />
      <Skeleton variant="rectangular" height={60} />
      <Skeleton variant="rectangular" height={300} />
    </Stack>
  );
}

/** Spec tracing §2 'Trace page (TraceShow)': header plus the span tree. The timeline comes later. */
export function TracePage() {
  const projectId = useProjectIdParam();
  const traceId = useParams().traceId ?? '';
  const { data, error, isPending } = useTrace(projectId, traceId);

  useEffect(() => {
    document.title = data ? `View trace ${truncate(data.root.displayName, 60)} | Lantern` : 'View trace | Lantern';
  }, [data]);

  if (error) return <RequestError error={error} />;
  if (isPending || projectId === undefined) return <TraceSkeleton />;
  const { root } = data;

  return (
    <Stack spacing={2} data-testid="trace-page">
      <Breadcrumbs separator=">" data-testid="trace-breadcrumbs">
        <Link component={RouterLink} to={paths.spanGroups(projectId, { system: root.system })} underline="hover">
          {root.system}
        </Link>
        <Typography color="text.secondary">{truncate(root.displayName, 60)}</Typography>
        <Typography color="text.primary" data-testid="trace-id">
          {data.trace.id}
        </Typography>
      </Breadcrumbs>
      <Card variant="outlined">
        <CardContent>
          <SpanHeader span={root} extra={[{ label: 'Spans', value: String(data.numSpan), testId: 'header-num-spans' }]} />
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <Box sx={{ overflowX: 'auto' }}>
            <SpanTree root={root} />
          </Box>
        </CardContent>
      </Card>
    </Stack>
  );
}
