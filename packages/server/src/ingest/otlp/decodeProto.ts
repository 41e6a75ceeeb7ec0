import { OtlpDecodeError } from './decodeError';
import { idError, validHexId, type IdKind } from './ids';
import { MAX_VALUE_DEPTH } from './types';
import { pbInt64 } from './int64';
import type { PbKeyValue } from './protoRoot';
import { readKeyValue } from './protoAttrs';
import { WireError, WireReader, WIRE_FIXED64, WIRE_LEN, WIRE_VARINT } from './protoWire';
import type {
  OtlpEvent,
  OtlpKeyValue,
  OtlpLink,
  OtlpResourceSpans,
  OtlpScope,
  OtlpScopeSpans,
  OtlpSpan,
  OtlpTracesRequest,
} from './types';

/**
 * OTLP/protobuf (HTTP `application/x-protobuf` and gRPC) → OtlpTracesRequest. This is the hot
 * path: the body's bytes are read field by field (protoWire.ts) straight into the request's
 * shape, with no protobufjs message tree, no Long and no second pass over the attributes. What it
 * makes is what protobufjs' decode followed by the former fix-ups made (tracesOutput.test.ts pins
 * the stored rows of both): absent fields as proto3 defaults, ids as hex, times as bigint, int64
 * values as numbers when exact, an AnyValue with several fields set read as its first by
 * convertAnyValue's order (protoAttrs.ts). Attribute keys are decoded once and reused across requests.
 */
export function decodeTracesProto(buf: Uint8Array): OtlpTracesRequest {
  if (!(buf instanceof Uint8Array)) throw new OtlpDecodeError('expected protobuf bytes');
  const d = new TracesDecoder(buf);
  try {
    return d.request();
  } catch (err) {
    if (!(err instanceof WireError)) throw err;
    throw new OtlpDecodeError(`body is not a valid OTLP ExportTraceServiceRequest protobuf: ${err.message}`);
  }
}

class TracesDecoder {
  private readonly r: WireReader;
  /** The last trace id's bytes (start, end) and hex: spans of one request share a handful of trace ids. */
  private lastTraceStart = -1;
  private lastTraceHex = '';
  private rejected = 0;
  private rejectedMessage = '';

  constructor(buf: Uint8Array) {
    this.r = new WireReader(buf);
  }

  request(): OtlpTracesRequest {
    const r = this.r;
    const end = r.buf.length;
    const resourceSpans: OtlpResourceSpans[] = [];
    while (r.pos < end) {
      const tag = r.uint32(end);
      if (tag === ((1 << 3) | WIRE_LEN)) resourceSpans.push(this.resourceSpans(r.lengthEnd(end), resourceSpans.length));
      else r.skip(tag & 7, end);
    }
    return { resourceSpans, rejected: this.rejected, rejectedMessage: this.rejectedMessage };
  }

  private resourceSpans(end: number, index: number): OtlpResourceSpans {
    const r = this.r;
    let attributes = NO_KEY_VALUES;
    const scopeSpans: OtlpScopeSpans[] = [];
    while (r.pos < end) {
      const tag = r.uint32(end);
      if (tag === ((1 << 3) | WIRE_LEN)) attributes = this.resource(r.lengthEnd(end));
      else if (tag === ((2 << 3) | WIRE_LEN))
        scopeSpans.push(this.scopeSpans(r.lengthEnd(end), index, scopeSpans.length));
      else r.skip(tag & 7, end);
    }
    return { resource: { attributes }, scopeSpans };
  }

  /** A Resource's attributes (a later Resource field replaces an earlier one, as in protobufjs). */
  private resource(end: number): OtlpKeyValue[] {
    const r = this.r;
    let attributes = NO_KEY_VALUES;
    while (r.pos < end) {
      const tag = r.uint32(end);
      if (tag === ((1 << 3) | WIRE_LEN)) attributes = this.withKeyValue(attributes, end);
      else r.skip(tag & 7, end);
    }
    return attributes;
  }

  private scopeSpans(end: number, rIndex: number, sIndex: number): OtlpScopeSpans {
    const r = this.r;
    let scope: OtlpScope = EMPTY_SCOPE;
    const spans: OtlpSpan[] = [];
    let spanIndex = 0;
    while (r.pos < end) {
      const tag = r.uint32(end);
      if (tag === ((2 << 3) | WIRE_LEN)) {
        const spanEnd = r.lengthEnd(end);
        try {
          spans.push(this.span(spanEnd));
        } catch (err) {
          if (!(err instanceof OtlpDecodeError)) throw err;
          // One bad span is dropped and reported (partial success), not the whole request. The
          // error names the field inside the span; where the span is is prefixed only now.
          r.pos = spanEnd;
          if (this.rejected++ === 0)
            this.rejectedMessage = `resourceSpans[${rIndex}].scopeSpans[${sIndex}].spans[${spanIndex}].${err.message}`;
        }
        spanIndex++;
      } else if (tag === ((1 << 3) | WIRE_LEN)) scope = this.scope(r.lengthEnd(end));
      else r.skip(tag & 7, end);
    }
    return { scope, spans };
  }

  private scope(end: number): OtlpScope {
    const r = this.r;
    let name = '';
    let version = '';
    let attributes = NO_KEY_VALUES;
    while (r.pos < end) {
      const tag = r.uint32(end);
      if (tag === ((1 << 3) | WIRE_LEN)) name = r.string(end);
      else if (tag === ((2 << 3) | WIRE_LEN)) version = r.string(end);
      else if (tag === ((3 << 3) | WIRE_LEN)) attributes = this.withKeyValue(attributes, end);
      else r.skip(tag & 7, end);
    }
    return { name, version, attributes };
  }

  private span(end: number): OtlpSpan {
    const r = this.r;
    let traceId = '';
    let spanId = '';
    let parentSpanId = '';
    let traceState = '';
    let name = '';
    let kind = 0;
    let start = 0n;
    let stop = 0n;
    let attributes = NO_KEY_VALUES;
    let events = NO_EVENTS;
    let links = NO_LINKS;
    let code = 0;
    let message = '';
    while (r.pos < end) {
      const tag = r.uint32(end);
      switch (tag) {
        case (1 << 3) | WIRE_LEN:
          traceId = this.traceIdHex(end);
          break;
        case (2 << 3) | WIRE_LEN:
          spanId = r.hex(end);
          break;
        case (3 << 3) | WIRE_LEN:
          traceState = r.string(end);
          break;
        case (4 << 3) | WIRE_LEN:
          parentSpanId = r.hex(end);
          break;
        case (5 << 3) | WIRE_LEN:
          name = r.string(end);
          break;
        case (6 << 3) | WIRE_VARINT:
          kind = r.uint32(end) | 0;
          break;
        case (7 << 3) | WIRE_FIXED64:
          start = r.fixed64(end);
          break;
        case (8 << 3) | WIRE_FIXED64:
          stop = r.fixed64(end);
          break;
        case (9 << 3) | WIRE_LEN:
          attributes = this.withKeyValue(attributes, end);
          break;
        case (11 << 3) | WIRE_LEN:
          if (events === NO_EVENTS) events = [];
          events.push(this.event(r.lengthEnd(end)));
          break;
        case (13 << 3) | WIRE_LEN:
          if (links === NO_LINKS) links = [];
          links.push(this.link(r.lengthEnd(end)));
          break;
        case (15 << 3) | WIRE_LEN: {
          // A later Status replaces an earlier one whole (fields it lacks become defaults).
          const statusEnd = r.lengthEnd(end);
          code = 0;
          message = '';
          while (r.pos < statusEnd) {
            const t = r.uint32(statusEnd);
            if (t === ((2 << 3) | WIRE_LEN)) message = r.string(statusEnd);
            else if (t === ((3 << 3) | WIRE_VARINT)) code = r.uint32(statusEnd) | 0;
            else r.skip(t & 7, statusEnd);
          }
          break;
        }
        default:
          r.skip(tag & 7, end);
      }
    }
    // Links are checked first, then the span's own ids, in the order the former decoder did.
    for (let i = 0; i < links.length; i++) {
      const l = links[i];
      l.traceId = id(l.traceId, 'trace', `links[${i}].traceId`);
      l.spanId = id(l.spanId, 'span', `links[${i}].spanId`);
    }
    return {
      traceId: id(traceId, 'trace', 'traceId'),
      spanId: id(spanId, 'span', 'spanId'),
      parentSpanId: id(parentSpanId, 'parent', 'parentSpanId'),
      traceState,
      name,
      kind,
      startTimeUnixNano: start,
      endTimeUnixNano: stop,
      attributes,
      events,
      links,
      status: { code, message },
    };
  }

  /** A trace id's hex, reused while spans repeat the previous span's trace id bytes. */
  private traceIdHex(end: number): string {
    const r = this.r;
    const to = r.lengthEnd(end);
    const from = r.pos;
    r.pos = to;
    const last = this.lastTraceStart;
    const len = to - from;
    if (last >= 0 && len === 16) {
      const buf = r.buf;
      let same = true;
      for (let i = 0; i < 16; i++) {
        if (buf[from + i] !== buf[last + i]) {
          same = false;
          break;
        }
      }
      if (same) return this.lastTraceHex;
    }
    const hex = len === 0 ? '' : r.buf.hexSlice(from, to);
    if (len === 16) {
      this.lastTraceStart = from;
      this.lastTraceHex = hex;
    }
    return hex;
  }

  private event(end: number): OtlpEvent {
    const r = this.r;
    let timeUnixNano = 0n;
    let name = '';
    let attributes = NO_KEY_VALUES;
    while (r.pos < end) {
      const tag = r.uint32(end);
      if (tag === ((1 << 3) | WIRE_FIXED64)) timeUnixNano = r.fixed64(end);
      else if (tag === ((2 << 3) | WIRE_LEN)) name = r.string(end);
      else if (tag === ((3 << 3) | WIRE_LEN)) attributes = this.withKeyValue(attributes, end);
      else r.skip(tag & 7, end);
    }
    return { timeUnixNano, name, attributes };
  }

  /** A link with its ids as read (hex, unchecked: span() checks them). */
  private link(end: number): OtlpLink {
    const r = this.r;
    let traceId = '';
    let spanId = '';
    let traceState = '';
    let attributes = NO_KEY_VALUES;
    while (r.pos < end) {
      const tag = r.uint32(end);
      if (tag === ((1 << 3) | WIRE_LEN)) traceId = r.hex(end);
      else if (tag === ((2 << 3) | WIRE_LEN)) spanId = r.hex(end);
      else if (tag === ((3 << 3) | WIRE_LEN)) traceState = r.string(end);
      else if (tag === ((4 << 3) | WIRE_LEN)) attributes = this.withKeyValue(attributes, end);
      else r.skip(tag & 7, end);
    }
    return { traceId, spanId, traceState, attributes };
  }

  /** `list` with the KeyValue field here added (a new list in place of the shared empty one). */
  private withKeyValue(list: OtlpKeyValue[], end: number): OtlpKeyValue[] {
    const out = list === NO_KEY_VALUES ? [] : list;
    out.push(readKeyValue(this.r, this.r.lengthEnd(end), 0));
    return out;
  }
}

const EMPTY_SCOPE: OtlpScope = { name: '', version: '', attributes: [] };
const NO_EVENTS: OtlpEvent[] = [];
const NO_LINKS: OtlpLink[] = [];

function id(hex: string, kind: IdKind, field: string): string {
  const valid = validHexId(hex, kind);
  if (valid === null) throw idError(hex, kind, field);
  return valid;
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
