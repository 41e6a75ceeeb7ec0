import { OtlpDecodeError } from './decodeError';
import { fixKeyValues } from './decodeProto';
import { keyValues, anyValueOrNull } from './decodeJson';
import { bytesToHex, optionalHexId, optionalJsonId } from './ids';
import { jsonUint64, pbUint64 } from './int64';
import { asArray, asEnum, asObject, asString, field, SEVERITY_NUMBER_NAMES, type Path } from './jsonFields';
import type { OtlpLogRecord, OtlpLogsRequest, OtlpResourceLogs } from './logsTypes';
import { ExportLogsServiceRequest, type PbLogsRequest } from './protoRoot';
import type { OtlpAnyValue } from './types';

/**
 * OTLP logs, protobuf or parsed OTLP/JSON → OtlpLogsRequest. Structure errors refuse the whole
 * request (OtlpDecodeError); a record whose trace or span id has the wrong length is dropped
 * and counted instead, so one bad record does not cost the client the rest (partial_success).
 */
export function decodeLogsProto(buf: Uint8Array): OtlpLogsRequest {
  if (!(buf instanceof Uint8Array)) throw new OtlpDecodeError('expected protobuf bytes');
  let msg: PbLogsRequest;
  try {
    msg = ExportLogsServiceRequest.decode(buf);
  } catch (err) {
    throw new OtlpDecodeError(`body is not a valid OTLP ExportLogsServiceRequest protobuf: ${(err as Error).message}`);
  }
  const out = new Rejections();
  const resourceLogs: OtlpResourceLogs[] = (msg.resourceLogs ?? []).map((rl, r) => ({
    resource: { attributes: fixKeyValues(rl.resource?.attributes) },
    scopeLogs: (rl.scopeLogs ?? []).map((sl, s) => ({
      scope: {
        name: sl.scope?.name ?? '',
        version: sl.scope?.version ?? '',
        attributes: fixKeyValues(sl.scope?.attributes),
      },
      logRecords: (sl.logRecords ?? []).flatMap((lr, i): OtlpLogRecord[] => {
        const traceId = optionalHexId(bytesToHex(lr.traceId), 16);
        const spanId = optionalHexId(bytesToHex(lr.spanId), 8);
        if (traceId === null || spanId === null) {
          out.reject(
            `resourceLogs[${r}].scopeLogs[${s}].logRecords[${i}]: ${traceId === null ? 'traceId must be 16 bytes' : 'spanId must be 8 bytes'}`,
          );
          return [];
        }
        let body: OtlpAnyValue | null = null;
        if (lr.body != null) {
          // fixKeyValues fixes int64s and checks nesting depth of the value in place.
          fixKeyValues([{ key: 'body', value: lr.body }]);
          body = lr.body as OtlpAnyValue;
        }
        return [
          {
            timeUnixNano: pbUint64(lr.timeUnixNano),
            observedTimeUnixNano: pbUint64(lr.observedTimeUnixNano),
            severityNumber: lr.severityNumber ?? 0,
            severityText: lr.severityText ?? '',
            body,
            attributes: fixKeyValues(lr.attributes),
            traceId,
            spanId,
          },
        ];
      }),
    })),
  }));
  return { resourceLogs, rejected: out.count, rejectedMessage: out.message };
}

export function decodeLogsJson(body: unknown): OtlpLogsRequest {
  const root = asObject(body, () => 'body');
  if (!root) throw new OtlpDecodeError('body: expected an ExportLogsServiceRequest JSON object, got nothing');
  const out = new Rejections();
  const resourceLogs: OtlpResourceLogs[] = asArray(
    field(root, 'resourceLogs', 'resource_logs'),
    () => 'resourceLogs',
  ).map((rlRaw, r) => {
    const rlPath = `resourceLogs[${r}]`;
    const rl = asObject(rlRaw, () => rlPath) ?? {};
    const resource = asObject(rl.resource, () => `${rlPath}.resource`) ?? {};
    return {
      resource: { attributes: keyValues(resource.attributes, () => `${rlPath}.resource.attributes`) },
      scopeLogs: asArray(field(rl, 'scopeLogs', 'scope_logs'), () => `${rlPath}.scopeLogs`).map((slRaw, s) => {
        const slPath = `${rlPath}.scopeLogs[${s}]`;
        const sl = asObject(slRaw, () => slPath) ?? {};
        const scope = asObject(sl.scope, () => `${slPath}.scope`) ?? {};
        return {
          scope: {
            name: asString(scope.name, () => `${slPath}.scope.name`),
            version: asString(scope.version, () => `${slPath}.scope.version`),
            attributes: keyValues(scope.attributes, () => `${slPath}.scope.attributes`),
          },
          logRecords: asArray(field(sl, 'logRecords', 'log_records'), () => `${slPath}.logRecords`).flatMap(
            (lrRaw, i) => {
              const path: Path = () => `${slPath}.logRecords[${i}]`;
              const lr = asObject(lrRaw, path) ?? {};
              const traceId = optionalJsonId(field(lr, 'traceId', 'trace_id'), 16);
              const spanId = optionalJsonId(field(lr, 'spanId', 'span_id'), 8);
              if (traceId === null || spanId === null) {
                out.reject(
                  `${path()}: ${traceId === null ? 'traceId must be 32 hex chars' : 'spanId must be 16 hex chars'}`,
                );
                return [];
              }
              return [
                {
                  timeUnixNano: jsonUint64(field(lr, 'timeUnixNano', 'time_unix_nano'), () => `${path()}.timeUnixNano`),
                  observedTimeUnixNano: jsonUint64(
                    field(lr, 'observedTimeUnixNano', 'observed_time_unix_nano'),
                    () => `${path()}.observedTimeUnixNano`,
                  ),
                  severityNumber: asEnum(
                    field(lr, 'severityNumber', 'severity_number'),
                    SEVERITY_NUMBER_NAMES,
                    () => `${path()}.severityNumber`,
                  ),
                  severityText: asString(field(lr, 'severityText', 'severity_text'), () => `${path()}.severityText`),
                  body: anyValueOrNull(lr.body, () => `${path()}.body`),
                  attributes: keyValues(lr.attributes, () => `${path()}.attributes`),
                  traceId,
                  spanId,
                },
              ];
            },
          ),
        };
      }),
    };
  });
  return { resourceLogs, rejected: out.count, rejectedMessage: out.message };
}

/** Counts dropped records and keeps the first reason (the one a client most likely needs). */
class Rejections {
  count = 0;
  message = '';
  reject(reason: string): void {
    if (this.count === 0) this.message = reason;
    this.count++;
  }
}
