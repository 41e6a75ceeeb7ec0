import { Box, Link, Stack, Typography } from '@mui/material';
import type { Span } from '@lantern/shared';
import { Link as RouterLink } from 'react-router-dom';
import { paths } from '../../../lib/routes/paths';
import { SpanAttrsTable } from './SpanAttrs';

type SpanLinks = NonNullable<Span['links']>;

/**
 * A span's links (OpenTelemetry span links: a consumer to the producer of its message, a batch job
 * to the requests it serves): each opens the linked span, or its trace, with the link's attributes
 * underneath. A link into the span's own trace says so.
 */
export function LinkPanels({ links, projectId, traceId }: { links: SpanLinks; projectId: number; traceId: string }) {
  if (links.length === 0) return <Typography color="text.secondary">There are no links.</Typography>;
  return (
    <Stack spacing={1} data-testid="link-panels">
      {links.map((l, i) => (
        <Box
          key={`${l.traceId}-${l.spanId}-${i}`}
          sx={{ border: '1px solid #0000001f', borderRadius: 1, p: 1.5 }}
          data-testid="link-panel"
        >
          <Stack direction="row" spacing={2} sx={{ alignItems: 'baseline', flexWrap: 'wrap', mb: 1 }}>
            <Link
              component={RouterLink}
              to={paths.span(projectId, l.traceId, l.spanId)}
              underline="hover"
              data-testid="link-span"
            >
              Span {l.spanId}
            </Link>
            <Typography variant="body2" color="text.secondary">
              in{' '}
              {l.traceId === traceId ? (
                'this trace'
              ) : (
                <Link
                  component={RouterLink}
                  to={paths.trace(projectId, l.traceId)}
                  underline="hover"
                  data-testid="link-trace"
                >
                  trace {l.traceId}
                </Link>
              )}
            </Typography>
          </Stack>
          <SpanAttrsTable attrs={l.attrs} />
        </Box>
      ))}
    </Stack>
  );
}
