import { Alert as MuiAlert, Skeleton, Stack } from '@mui/material';
import type { Alert, ErrorAlertParams } from '@lantern/shared';
import type { ReactNode } from 'react';
import { formatDateTimeFull } from '../../../lib/format/dateTime';
import { isApiError } from '../../../lib/api/apiClient';
import { LabelValues } from '../../tracing/LabelValues';
import { SpanCard } from '../../tracing/span/SpanCard';
import { useSpan } from '../../tracing/tracingApi';
import { useAlertEvents } from './alertsApi';
import { stateFacts } from './alertState';
import { occurrences } from './alertText';

/**
 * Spec platform §2.6, an error alert: the occurrences, 'First seen' when the alert was updated
 * since it was created, `children` (the card's history), and the span card of the error's span.
 */
export function AlertErrorBody({
  alert,
  children,
}: {
  alert: Alert & { params: ErrorAlertParams };
  children?: ReactNode;
}) {
  const p = alert.params;
  const span = useSpan(alert.projectId, p.traceId, p.spanId);
  const events = useAlertEvents(alert.projectId, alert.id);
  return (
    <Stack spacing={2} data-testid="alert-error">
      <LabelValues
        items={[
          ...stateFacts(alert, events.data?.events, ''),
          { label: 'Occurrences', value: occurrences(p), testId: 'alert-fact-occurrences' },
          ...(alert.createdAt !== alert.updatedAt
            ? [
                {
                  label: 'First seen',
                  value: formatDateTimeFull(new Date(alert.createdAt)),
                  testId: 'alert-fact-first-seen',
                },
              ]
            : []),
        ]}
      />
      {children}
      {span.error ? (
        <MuiAlert severity={isApiError(span.error, 404) ? 'info' : 'error'} data-testid="alert-span-missing">
          {isApiError(span.error, 404)
            ? "The error's span is no longer stored (it is older than the retention period)."
            : span.error.message}
        </MuiAlert>
      ) : span.data ? (
        <SpanCard span={span.data.span} />
      ) : (
        <Skeleton variant="rectangular" height={240} />
      )}
    </Stack>
  );
}
