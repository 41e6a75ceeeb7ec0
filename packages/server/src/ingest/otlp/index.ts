// OTLP trace decoding: protobuf bytes or a parsed OTLP/JSON body in, one plain typed
// OtlpTracesRequest out (hex ids, bigint ns times, tagged AnyValues). It owns wire-format checks
// only: bad input throws OtlpDecodeError and nothing else; it must not merge, rename or enrich.
export { decodeTracesProto } from './decodeProto';
export { decodeTracesJson } from './decodeJson';
export { OtlpDecodeError } from './decodeError';
export { OtlpSpanKind, OtlpStatusCode } from './types';
export type {
  OtlpAnyValue,
  OtlpEvent,
  OtlpKeyValue,
  OtlpLink,
  OtlpResourceSpans,
  OtlpScope,
  OtlpScopeSpans,
  OtlpSpan,
  OtlpStatus,
  OtlpTracesRequest,
} from './types';
