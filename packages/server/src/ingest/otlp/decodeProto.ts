import { OtlpDecodeError } from './decodeError';
import { bytesToHex, idError, validHexId, type IdKind } from './ids';
import { MAX_VALUE_DEPTH } from './types';
import { pbInt64, pbUint64 } from './int64';
import { ExportTraceServiceRequest, type PbKeyValue, type PbSpan, type PbTracesRequest } from './protoRoot';
import type {
  OtlpEvent,
  OtlpKeyValue,
  OtlpLink,
  OtlpResourceSpans,
  OtlpScopeSpans,
  OtlpSpan,
  OtlpTracesRequest,
} from './types';

/**
 * OTLP/protobuf (HTTP `application/x-protobuf` and gRPC) → OtlpTracesRequest. This is the hot
 * path, so it allocates as little as it can: one protobufjs decode, then a walk that builds the
 * span objects and hands attribute lists over as they are (fixed up in place, see fixKeyValues).
 * No JSON round trips; error paths are built only when something is wrong.
 */
export function decodeTracesProto(buf: Uint8Array): OtlpTracesRequest {
  if (!(buf instanceof Uint8Array)) throw new OtlpDecodeError('expected protobuf bytes');
  let msg: PbTracesRequest;
  try {
    msg = ExportTraceServiceRequest.decode(buf);
  } catch (err) {
    // protobufjs throws RangeError/Error for truncated or malformed input.
    throw new OtlpDecodeError(`body is not a valid OTLP ExportTraceServiceRequest protobuf: ${(err as Error).message}`);
  }
  const traceIds = new TraceIdCache();
  let rejected = 0;
  let rejectedMessage = '';
  const rsList = msg.resourceSpans ?? [];
  const resourceSpans: OtlpResourceSpans[] = new Array<OtlpResourceSpans>(rsList.length);
  for (let r = 0; r < rsList.length; r++) {
    const rs = rsList[r];
    const ssList = rs.scopeSpans ?? [];
    const scopeSpans: OtlpScopeSpans[] = new Array<OtlpScopeSpans>(ssList.length);
    for (let s = 0; s < ssList.length; s++) {
      const ss = ssList[s];
      const pbSpans = ss.spans ?? [];
      const spans: OtlpSpan[] = new Array<OtlpSpan>(pbSpans.length);
      let kept = 0;
      for (let i = 0; i < pbSpans.length; i++) {
        try {
          spans[kept++] = span(pbSpans[i], traceIds);
        } catch (err) {
          if (!(err instanceof OtlpDecodeError)) throw err;
          // One bad span is dropped and reported (partial success), not the whole request. The
          // error names the field inside the span; where the span is is prefixed only now.
          kept--;
          if (rejected++ === 0) rejectedMessage = `resourceSpans[${r}].scopeSpans[${s}].spans[${i}].${err.message}`;
        }
      }
      spans.length = kept;
      const scope = ss.scope;
      scopeSpans[s] = {
        scope: { name: scope?.name ?? '', version: scope?.version ?? '', attributes: fixKeyValues(scope?.attributes) },
        spans,
      };
    }
    resourceSpans[r] = { resource: { attributes: fixKeyValues(rs.resource?.attributes) }, scopeSpans };
  }
  return { resourceSpans, rejected, rejectedMessage };
}

/**
 * Spans of one request mostly share a handful of trace ids: comparing 16 bytes with the last one
 * is cheaper than building the hex string again.
 */
class TraceIdCache {
  private bytes: Uint8Array | null = null;
  private hex = '';

  toHex(b: Uint8Array | null | undefined): string {
    const last = this.bytes;
    if (b && last && b.length === last.length) {
      let same = true;
      for (let i = 0; i < b.length; i++) {
        if (b[i] !== last[i]) {
          same = false;
          break;
        }
      }
      if (same) return this.hex;
    }
    this.bytes = b ?? null;
    this.hex = bytesToHex(b);
    return this.hex;
  }
}

function id(hex: string, kind: IdKind, field: string): string {
  const valid = validHexId(hex, kind);
  if (valid === null) throw idError(hex, kind, field);
  return valid;
}

function span(s: PbSpan, traceIds: TraceIdCache): OtlpSpan {
  const pbEvents = s.events ?? [];
  const events: OtlpEvent[] = new Array<OtlpEvent>(pbEvents.length);
  for (let i = 0; i < pbEvents.length; i++) {
    const e = pbEvents[i];
    events[i] = { timeUnixNano: pbUint64(e.timeUnixNano), name: e.name ?? '', attributes: fixKeyValues(e.attributes) };
  }
  const pbLinks = s.links ?? [];
  const links: OtlpLink[] = new Array<OtlpLink>(pbLinks.length);
  for (let i = 0; i < pbLinks.length; i++) {
    const l = pbLinks[i];
    links[i] = {
      traceId: id(bytesToHex(l.traceId), 'trace', `links[${i}].traceId`),
      spanId: id(bytesToHex(l.spanId), 'span', `links[${i}].spanId`),
      traceState: l.traceState ?? '',
      attributes: fixKeyValues(l.attributes),
    };
  }
  const status = s.status;
  return {
    traceId: id(traceIds.toHex(s.traceId), 'trace', 'traceId'),
    spanId: id(bytesToHex(s.spanId), 'span', 'spanId'),
    parentSpanId: id(bytesToHex(s.parentSpanId), 'parent', 'parentSpanId'),
    traceState: s.traceState ?? '',
    name: s.name ?? '',
    kind: s.kind ?? 0,
    startTimeUnixNano: pbUint64(s.startTimeUnixNano),
    endTimeUnixNano: pbUint64(s.endTimeUnixNano),
    attributes: fixKeyValues(s.attributes),
    events,
    links,
    status: { code: status?.code ?? 0, message: status?.message ?? '' },
  };
}

const NO_KEY_VALUES: OtlpKeyValue[] = [];

/**
 * protobufjs' KeyValue/AnyValue objects already have the OtlpKeyValue/OtlpAnyValue shape (oneof
 * fields, null when unset), so they are passed on without copying. Two fix-ups make them match
 * the type, in place (we own the freshly decoded tree): an absent key becomes '' and int64 values
 * (protobufjs Long) become a number or bigint. Nested arrays and kvlists are fixed the same way,
 * down to MAX_VALUE_DEPTH so later recursive steps cannot overflow the stack.
 */
export function fixKeyValues(list: PbKeyValue[] | null | undefined, depth = 0): OtlpKeyValue[] {
  if (!list || list.length === 0) return NO_KEY_VALUES;
  for (let i = 0; i < list.length; i++) {
    const kv = list[i];
    if (kv.key == null) kv.key = '';
    if (kv.value != null) fixAnyValue(kv.value, depth);
  }
  return list as OtlpKeyValue[];
}

function fixAnyValue(v: NonNullable<PbKeyValue['value']>, depth: number): void {
  if (v.stringValue != null) return;
  if (v.intValue != null) {
    if (typeof v.intValue !== 'number') v.intValue = pbInt64(v.intValue);
    return;
  }
  if (v.arrayValue == null && v.kvlistValue == null) return;
  if (depth >= MAX_VALUE_DEPTH)
    throw new OtlpDecodeError(`attributes: values nest deeper than ${MAX_VALUE_DEPTH} levels`);
  if (v.arrayValue != null) {
    const values = v.arrayValue.values ?? [];
    for (let i = 0; i < values.length; i++) if (values[i] != null) fixAnyValue(values[i], depth + 1);
  } else if (v.kvlistValue != null) {
    fixKeyValues(v.kvlistValue.values, depth + 1);
  }
}
