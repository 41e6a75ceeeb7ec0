import type { IngestPipeline, SignalIngest } from './ingestPipeline';
import { normalizeLogs } from './normalize';
import { decodeLogsJson, decodeLogsProto } from './otlp';
import { parseJsonBody } from './requestBody';

/** OTLP logs (HTTP and gRPC): decode, normalise into `log:<severity>` rows, commit. */
export function createLogsIngest(pipeline: IngestPipeline, now: () => bigint = nowNs): SignalIngest {
  return (project, format, body) =>
    pipeline.run('logs', body.length, () => {
      const request = format === 'protobuf' ? decodeLogsProto(body) : decodeLogsJson(parseJsonBody(body));
      const rows = normalizeLogs(request, { projectId: project.id, groupByEnv: project.group_by_env, groupFuncsByService: project.group_funcs_by_service }, now());
      return { rows, rejected: request.rejected, rejectedMessage: request.rejectedMessage };
    });
}

export function nowNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}
