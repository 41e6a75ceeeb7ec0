import { OtlpDecodeError } from './decodeError';
import { jsonIdToHex, typeName } from './ids';
import { jsonInt64, jsonUint64 } from './int64';
import {
  asArray,
  asEnum,
  asObject,
  asString,
  field,
  SPAN_KIND_NAMES,
  STATUS_CODE_NAMES,
  type JsonObject,
  type Path,
} from './jsonFields';
import {
  MAX_VALUE_DEPTH,
  type OtlpAnyValue,
  type OtlpEvent,
  type OtlpKeyValue,
  type OtlpLink,
  type OtlpSpan,
  type OtlpTracesRequest,
} from './types';

/**
 * OTLP/JSON (an already parsed body) → OtlpTracesRequest, per the OTLP JSON mapping: hex ids,
 * int64 as string or number, enums as numbers (names accepted), camelCase keys (snake_case
 * accepted). Unknown fields are ignored so newer clients keep working; wrong types are refused.
 */
export function decodeTracesJson(body: unknown): OtlpTracesRequest {
  const root = asObject(body, () => 'body');
  if (!root) throw new OtlpDecodeError('body: expected an ExportTraceServiceRequest JSON object, got nothing');
  const rsList = asArray(field(root, 'resourceSpans', 'resource_spans'), () => 'resourceSpans');
  let rejected = 0;
  let rejectedMessage = '';
  const resourceSpans = rsList.map((rsRaw, r) => {
    const rsPath = `resourceSpans[${r}]`;
    const rs = asObject(rsRaw, () => rsPath) ?? {};
    const resource = asObject(rs.resource, () => `${rsPath}.resource`) ?? {};
    const ssList = asArray(field(rs, 'scopeSpans', 'scope_spans'), () => `${rsPath}.scopeSpans`);
    return {
      resource: { attributes: keyValues(resource.attributes, () => `${rsPath}.resource.attributes`) },
      scopeSpans: ssList.map((ssRaw, s) => {
        const ssPath = `${rsPath}.scopeSpans[${s}]`;
        const ss = asObject(ssRaw, () => ssPath) ?? {};
        const scope = asObject(ss.scope, () => `${ssPath}.scope`) ?? {};
        const spans = asArray(ss.spans, () => `${ssPath}.spans`);
        return {
          scope: {
            name: asString(scope.name, () => `${ssPath}.scope.name`),
            version: asString(scope.version, () => `${ssPath}.scope.version`),
            attributes: keyValues(scope.attributes, () => `${ssPath}.scope.attributes`),
          },
          spans: spans.flatMap((sp, i) => {
            try {
              return [span(sp, () => `${ssPath}.spans[${i}]`)];
            } catch (err) {
              // One bad span is dropped and reported (partial success), not the whole request.
              if (!(err instanceof OtlpDecodeError)) throw err;
              if (rejected++ === 0) rejectedMessage = err.message;
              return [];
            }
          }),
        };
      }),
    };
  });
  return { resourceSpans, rejected, rejectedMessage };
}

function span(raw: unknown, path: Path): OtlpSpan {
  const s = asObject(raw, path);
  if (!s) throw new OtlpDecodeError(`${path()}: expected a span object, got null`);
  const status = asObject(s.status, () => `${path()}.status`) ?? {};
  return {
    traceId: jsonIdToHex(field(s, 'traceId', 'trace_id'), 'trace', () => `${path()}.traceId`),
    spanId: jsonIdToHex(field(s, 'spanId', 'span_id'), 'span', () => `${path()}.spanId`),
    parentSpanId: jsonIdToHex(field(s, 'parentSpanId', 'parent_span_id'), 'parent', () => `${path()}.parentSpanId`),
    traceState: asString(field(s, 'traceState', 'trace_state'), () => `${path()}.traceState`),
    name: asString(s.name, () => `${path()}.name`),
    kind: asEnum(s.kind, SPAN_KIND_NAMES, () => `${path()}.kind`),
    startTimeUnixNano: jsonUint64(
      field(s, 'startTimeUnixNano', 'start_time_unix_nano'),
      () => `${path()}.startTimeUnixNano`,
    ),
    endTimeUnixNano: jsonUint64(field(s, 'endTimeUnixNano', 'end_time_unix_nano'), () => `${path()}.endTimeUnixNano`),
    attributes: keyValues(s.attributes, () => `${path()}.attributes`),
    events: asArray(s.events, () => `${path()}.events`).map((e, i) => event(e, () => `${path()}.events[${i}]`)),
    links: asArray(s.links, () => `${path()}.links`).map((l, i) => link(l, () => `${path()}.links[${i}]`)),
    status: {
      code: asEnum(status.code, STATUS_CODE_NAMES, () => `${path()}.status.code`),
      message: asString(status.message, () => `${path()}.status.message`),
    },
  };
}

function event(raw: unknown, path: Path): OtlpEvent {
  const e = asObject(raw, path) ?? {};
  return {
    timeUnixNano: jsonUint64(field(e, 'timeUnixNano', 'time_unix_nano'), () => `${path()}.timeUnixNano`),
    name: asString(e.name, () => `${path()}.name`),
    attributes: keyValues(e.attributes, () => `${path()}.attributes`),
  };
}

function link(raw: unknown, path: Path): OtlpLink {
  const l = asObject(raw, path) ?? {};
  return {
    traceId: jsonIdToHex(field(l, 'traceId', 'trace_id'), 'trace', () => `${path()}.traceId`),
    spanId: jsonIdToHex(field(l, 'spanId', 'span_id'), 'span', () => `${path()}.spanId`),
    traceState: asString(field(l, 'traceState', 'trace_state'), () => `${path()}.traceState`),
    attributes: keyValues(l.attributes, () => `${path()}.attributes`),
  };
}

export function keyValues(raw: unknown, path: Path, depth = 0): OtlpKeyValue[] {
  return asArray(raw, path).map((kvRaw, i) => {
    const kv = asObject(kvRaw, () => `${path()}[${i}]`) ?? {};
    const value = asObject(kv.value, () => `${path()}[${i}].value`);
    return {
      key: asString(kv.key, () => `${path()}[${i}].key`),
      value: value === undefined ? null : anyValue(value, () => `${path()}[${i}].value`, depth),
    };
  });
}

const BASE64_RE = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** One AnyValue object → the oneof shape with exactly the field that was set (or none). */
function anyValue(v: JsonObject, path: Path, depth: number): OtlpAnyValue {
  let x = field(v, 'stringValue', 'string_value');
  if (x !== undefined && x !== null) return { stringValue: asString(x, () => `${path()}.stringValue`) };
  x = field(v, 'intValue', 'int_value');
  if (x !== undefined && x !== null) return { intValue: jsonInt64(x, () => `${path()}.intValue`) };
  x = field(v, 'boolValue', 'bool_value');
  if (x !== undefined && x !== null) {
    if (typeof x !== 'boolean')
      throw new OtlpDecodeError(`${path()}.boolValue: expected a boolean, got ${typeName(x)}`);
    return { boolValue: x };
  }
  x = field(v, 'doubleValue', 'double_value');
  if (x !== undefined && x !== null) return { doubleValue: jsonDouble(x, () => `${path()}.doubleValue`) };
  x = field(v, 'arrayValue', 'array_value') ?? field(v, 'kvlistValue', 'kvlist_value');
  if (x !== undefined && x !== null && depth >= MAX_VALUE_DEPTH) {
    throw new OtlpDecodeError(`${path()}: values nest deeper than ${MAX_VALUE_DEPTH} levels`);
  }
  x = field(v, 'arrayValue', 'array_value');
  if (x !== undefined && x !== null) {
    const arr = asObject(x, () => `${path()}.arrayValue`) ?? {};
    const values = asArray(arr.values, () => `${path()}.arrayValue.values`).map((e, i) => {
      const p = () => `${path()}.arrayValue.values[${i}]`;
      return anyValue(asObject(e, p) ?? {}, p, depth + 1);
    });
    return { arrayValue: { values } };
  }
  x = field(v, 'kvlistValue', 'kvlist_value');
  if (x !== undefined && x !== null) {
    const kvl = asObject(x, () => `${path()}.kvlistValue`) ?? {};
    return { kvlistValue: { values: keyValues(kvl.values, () => `${path()}.kvlistValue.values`, depth + 1) } };
  }
  x = field(v, 'bytesValue', 'bytes_value');
  if (x !== undefined && x !== null) {
    if (typeof x !== 'string' || !BASE64_RE.test(x))
      throw new OtlpDecodeError(`${path()}.bytesValue: expected base64 text`);
    return { bytesValue: new Uint8Array(Buffer.from(x, 'base64')) };
  }
  return {};
}

/** Proto3 JSON doubles: a number, or a string for NaN/Infinity/-Infinity (and numeric text). */
function jsonDouble(x: unknown, path: Path): number {
  if (typeof x === 'number') return x;
  if (typeof x === 'string') {
    if (x === 'NaN') return NaN;
    if (x === 'Infinity') return Infinity;
    if (x === '-Infinity') return -Infinity;
    const n = Number(x);
    if (x.trim() !== '' && !Number.isNaN(n)) return n;
  }
  throw new OtlpDecodeError(`${path()}: expected a number, got ${typeName(x)}`);
}

/** An optional AnyValue field (e.g. a log body): null when absent. */
export function anyValueOrNull(raw: unknown, path: Path): OtlpAnyValue | null {
  const v = asObject(raw, path);
  return v === undefined ? null : anyValue(v, path, 0);
}
