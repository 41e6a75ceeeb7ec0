import type { SpanKind, StatusCode } from '@lantern/shared';

/**
 * OTLP span kind and status enums → row values (reference ingest §2.2).
 */

const KINDS: readonly SpanKind[] = ['internal', 'internal', 'server', 'client', 'producer', 'consumer'];

/** UNSPECIFIED, INTERNAL and numbers from a future proto all read as `internal`. */
export function spanKind(kind: number): SpanKind {
  return KINDS[kind] ?? 'internal';
}

/**
 * ERROR → 'error', OK → 'ok', UNSET (or an unknown number) → 'unset'.
 *
 * Decision: the reference folds UNSET into `ok` (ingest §2.2, §7 item 3). We keep `unset`: the
 * spec's StatusCode has it, OpenTelemetry distinguishes "instrumentation said nothing" from "the
 * application marked this OK", and nothing is lost for errors, since every error count and rate
 * in the reference's queries tests `status_code = 'error'` and never `= 'ok'`. Filters meaning
 * "not failed" should use `!= 'error'`.
 */
export function statusCode(code: number): StatusCode {
  return code === 2 ? 'error' : code === 1 ? 'ok' : 'unset';
}
