import type { ProjectOptions, Produced } from './produced';
import { normalizeLogs } from './normalize';
import { decodeLogsJson, decodeLogsProto } from './otlp';
import { parseJsonBody, type BodyFormat } from './requestBody';

/** OTLP logs (HTTP and gRPC): decode and normalise into `log:<severity>` rows. Runs on the prepare pool. */
export function produceOtlpLogs(body: Buffer, format: BodyFormat, project: ProjectOptions, now: bigint): Produced {
  const request = format === 'protobuf' ? decodeLogsProto(body) : decodeLogsJson(parseJsonBody(body));
  return {
    rows: normalizeLogs(request, project, now),
    rejected: request.rejected,
    rejectedMessage: request.rejectedMessage,
  };
}
