import { Alert as MuiAlert, Button, Skeleton, Stack } from '@mui/material';
import type { Alert, ErrorAlertParams } from '@lantern/shared';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { formatDateTimeFull } from '../../../lib/format/dateTime';
import { isApiError } from '../../../lib/api/apiClient';
import { LabelValues } from '../../tracing/LabelValues';
import { SpanCard } from '../../tracing/span/SpanCard';
import { useSpan } from '../../tracing/tracingApi';
import { ERRORS_SELECTION } from '../../tracing/explore/whatChanged/selection';
import { whatChangedPath } from '../../tracing/explore/whatChanged/whatChangedLink';
import { setWhere } from '../../tracing/query/defaultQueries';
import { useAlertEvents } from './alertsApi';
import { stateFacts } from './alertState';
import { occurrences } from './alertText';

/**
 * Spec platform §2.6, an error alert: the occurrences, 'First seen' when the alert was updated
 * since it was created, `children` (the card's history), a link to What changed in the errors of
 * the span's service over the card's range (`time`, address params), and the span card.
 */
export function AlertErrorBody({
  alert,
  time,
  children,
}: {
  alert: Alert & { params: ErrorAlertParams };
  time: { time_gte?: string; time_dur: string };
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
      {span.data && (
        <Stack direction="row">
          <Button
            size="small"
            variant="outlined"
            component={RouterLink}
            to={whatChangedPath(
              alert.projectId,
              { systems: ['spans:all'], query: serviceFilter(span.data.span.attrs['service.name']), time },
              ERRORS_SELECTION,
            )}
            data-testid="alert-what-changed"
          >
            What changed in errors
          </Button>
        </Stack>
      )}
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

/** `where service.name = "..."` for the error's service, or nothing when the span has none. */
const serviceFilter = (service: unknown) =>
  typeof service === 'string' && service !== '' ? setWhere('', 'service.name', '=', service) : '';
