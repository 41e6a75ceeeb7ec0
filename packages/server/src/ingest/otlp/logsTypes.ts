import type { OtlpAnyValue, OtlpKeyValue, OtlpScope } from './types';

/**
 * The one decoded shape of an OTLP ExportLogsServiceRequest, whichever wire format it came in
 * (the logs counterpart of OtlpTracesRequest): ids as lowercase hex ('' when absent or all
 * zeros), times as bigint ns, absent messages as empty values.
 */
export interface OtlpLogRecord {
  timeUnixNano: bigint;
  observedTimeUnixNano: bigint;
  /** 0 (unspecified) .. 24 (FATAL4); see the OTel logs data model. */
  severityNumber: number;
  severityText: string;
  /** null when the record has no body. */
  body: OtlpAnyValue | null;
  attributes: OtlpKeyValue[];
  /** 32 hex chars, or '' when the record is not tied to a trace. */
  traceId: string;
  /** 16 hex chars, or ''. */
  spanId: string;
}

export interface OtlpScopeLogs {
  scope: OtlpScope;
  logRecords: OtlpLogRecord[];
}

export interface OtlpResourceLogs {
  resource: { attributes: OtlpKeyValue[] };
  scopeLogs: OtlpScopeLogs[];
}

/**
 * `rejected` counts records dropped because they cannot be stored as they are (ids of the wrong
 * length); `rejectedMessage` says why, for OTLP partial_success.
 */
export interface OtlpLogsRequest {
  resourceLogs: OtlpResourceLogs[];
  rejected: number;
  rejectedMessage: string;
}
