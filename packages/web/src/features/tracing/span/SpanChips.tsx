import ErrorIcon from '@mui/icons-material/Error';
import { Chip, Stack } from '@mui/material';
import type { Span } from '@lantern/shared';

/**
 * The chips after a span name (reference frontend §1.3.10): an error icon, the service, in trace
 * mode the system when it does not end with the service, an HTTP status outside 2xx, and events.
 */
export function SpanChips({
  span,
  traceMode,
  onChip,
}: {
  span: Span;
  traceMode?: boolean;
  onChip?: (key: string, value: string) => void;
}) {
  const service = typeof span.attrs['service.name'] === 'string' ? span.attrs['service.name'] : undefined;
  const httpStatus = Number(span.attrs['http.status_code'] ?? span.attrs['http.response.status_code']);
  const chips: { key: string; value: string; label: string }[] = [];
  if (service) chips.push({ key: 'service.name', value: service, label: service });
  if (traceMode && !(service && span.system.endsWith(`:${service}`)))
    chips.push({ key: '.system', value: span.system, label: span.system });
  if (Number.isFinite(httpStatus) && httpStatus !== 0 && (httpStatus < 200 || httpStatus > 299))
    chips.push({ key: 'http.status_code', value: String(httpStatus), label: String(httpStatus) });
  const events = span.events?.length ?? 0;
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', flexShrink: 0 }} data-testid="span-chips">
      {span.statusCode === 'error' && <ErrorIcon color="error" fontSize="small" data-testid="span-error-icon" />}
      {chips.map((c) => (
        <Chip
          key={c.key}
          label={c.label}
          size="small"
          sx={{ borderRadius: 1, bgcolor: '#E1F5FE', height: 20 }}
          onClick={
            onChip
              ? (e) => {
                  e.stopPropagation();
                  onChip(c.key, c.value);
                }
              : undefined
          }
        />
      ))}
      {events > 0 && (
        <Chip
          label={`${events} event${events === 1 ? '' : 's'}`}
          size="small"
          sx={{ borderRadius: 1, bgcolor: '#E1F5FE', height: 20 }}
        />
      )}
    </Stack>
  );
}
