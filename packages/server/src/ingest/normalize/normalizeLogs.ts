import type { OtlpAnyValue, OtlpLogsRequest, OtlpScope } from '../otlp';
import type { AttrMap, SpanRow } from '../spanRow';
import { addAttrs, convertAnyValue } from './attrValue';
import { flattenParams } from './logParams';
import { popMessage } from './logMessage';
import { buildLogRows } from './logRow';
import type { NormalizeOptions } from './options';
import { hexToU64 } from './rowIds';
import { normalizeSeverity, severityFromNumber } from './severity';

/**
 * A decoded OTLP logs request → rows, one per log record (plus an exception row for records that
 * carry an exception), reference ingest §2.11. Attributes merge resource → scope → record; the
 * severity comes from severity_text, else severity_number, else alias attributes, else INFO; the
 * message from a string body, or from a structured body's `log`/`message`/`msg` field, whose other
 * fields become attributes.
 *
 * `receivedNs` stands in for records with neither a time nor an observed time (pure: the caller
 * passes the clock).
 */
export function normalizeLogs(req: OtlpLogsRequest, options: NormalizeOptions, receivedNs: bigint): SpanRow[] {
  const rows: SpanRow[] = [];
  let index = 0;
  for (const rl of req.resourceLogs) {
    const resource: AttrMap = {};
    addAttrs(resource, rl.resource.attributes);
    for (const sl of rl.scopeLogs) {
      const base = withScope(resource, sl.scope);
      for (const lr of sl.logRecords) {
        const own: AttrMap = {};
        addAttrs(own, lr.attributes);
        const attrs: AttrMap = { ...base, ...own };
        const severity = normalizeSeverity(lr.severityText) ?? severityFromNumber(lr.severityNumber);
        if (severity) attrs['log.severity'] = severity;
        else if (lr.severityText !== '' && attrs['log.severity'] === undefined) attrs['log.severity'] = lr.severityText;
        const { message, params } = bodyParts(lr.body);
        if (message !== undefined) attrs['log.message'] = message;
        // QUIRK fixed (§7 item 4): the observed time stands in when the record has no time.
        const timeNs = lr.timeUnixNano || lr.observedTimeUnixNano || receivedNs;
        buildLogRows(
          {
            attrs,
            ownAttrs: own,
            params,
            timeNs,
            traceId: lr.traceId,
            spanId: hexToU64(lr.spanId),
            seed: logSeed(timeNs, index++, message),
          },
          options,
          rows,
        );
      }
    }
  }
  return rows;
}

function withScope(resource: AttrMap, scope: OtlpScope): AttrMap {
  const attrs = { ...resource };
  if (scope.name !== '') attrs['otel.library.name'] = scope.name;
  if (scope.version !== '') attrs['otel.library.version'] = scope.version;
  addAttrs(attrs, scope.attributes);
  return attrs;
}

/**
 * A string body is the message. A kvlist body is a structured record: its `log`/`message`/`msg`
 * is the message (taken in buildLogRows), the rest parameters. Other scalars become the message
 * as text (the reference drops them); arrays become JSON text; bytes are dropped.
 */
function bodyParts(body: OtlpAnyValue | null): { message?: string; params?: AttrMap } {
  if (body == null) return {};
  if (body.stringValue != null) return { message: body.stringValue };
  if (body.kvlistValue != null) {
    const map = convertAnyValue(body) as Record<string, unknown>;
    const message = popMessage(map);
    return { message, params: flattenParams(map) };
  }
  const v = convertAnyValue(body);
  if (v === undefined || v === null) return {};
  return { message: typeof v === 'string' ? v : JSON.stringify(v) };
}

/** Distinct per record of a request, the same when the request is sent again. */
export function logSeed(timeNs: bigint, index: number, text: string | undefined): bigint {
  let h = 0x811c9dc5;
  if (text) {
    const n = Math.min(text.length, 256);
    for (let i = 0; i < n; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  }
  return (timeNs ^ (BigInt(h >>> 0) << 32n) ^ BigInt(index)) & 0xffffffffffffffffn;
}
