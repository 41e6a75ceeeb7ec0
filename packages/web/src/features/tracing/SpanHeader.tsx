import { Box, Typography } from '@mui/material';
import type { Span } from '@lantern/shared';
import { formatDateTimeFull } from '../../lib/format/dateTime';
import { formatDuration } from '../../lib/format/duration';
import { LabelValues } from './LabelValues';
import { SpanStatus } from './SpanStatus';

/** Title and facts of a trace's root span or of a single span (spec tracing §2 Trace page header). */
export function SpanHeader({ span, extra = [] }: { span: Span; extra?: { label: string; value: string; testId?: string }[] }) {
  return (
    <Box data-testid="span-header">
      <Typography variant="h5" component="h1" sx={{ wordBreak: 'break-word', mb: 2 }} data-testid="span-header-title">
        {span.displayName}
      </Typography>
      <LabelValues
        items={[
          { label: 'System', value: span.system, testId: 'header-system' },
          { label: 'Kind', value: span.kind, testId: 'header-kind' },
          { label: 'Status', value: <SpanStatus code={span.statusCode} message={span.statusMessage} />, testId: 'header-status' },
          { label: 'Time', value: formatDateTimeFull(new Date(span.time)), testId: 'header-time' },
          { label: 'Duration', value: formatDuration(span.duration), testId: 'header-duration' },
          ...extra,
        ]}
      />
      {span.statusCode === 'error' && span.statusMessage && (
        <Typography color="error" variant="body2" sx={{ mt: 1 }} data-testid="header-status-message">
          {span.statusMessage}
        </Typography>
      )}
    </Box>
  );
}
