// OTLP decoding: protobuf bytes or a parsed OTLP/JSON body in, one plain typed request out (hex
// ids, bigint ns times, tagged AnyValues). It owns wire-format checks only: bad input throws
// OtlpDecodeError and nothing else; it must not merge, rename or enrich.
export { decodeTracesProto } from './decodeProto';
export { decodeTracesJson } from './decodeJson';
export { decodeLogsJson, decodeLogsProto } from './decodeLogs';
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
export type { OtlpLogRecord, OtlpLogsRequest, OtlpResourceLogs, OtlpScopeLogs } from './logsTypes';
