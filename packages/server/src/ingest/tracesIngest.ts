import type { IngestPipeline, SignalIngest } from './ingestPipeline';
import { normalizeTraces } from './normalize';
import { decodeTracesJson, decodeTracesProto } from './otlp';
import { parseJsonBody } from './requestBody';

/** OTLP traces (HTTP and gRPC): decode, normalise, commit. */
export function createTraceIngest(pipeline: IngestPipeline): SignalIngest {
  return (project, format, body) =>
    pipeline.run('traces', body.length, () => {
      const request = format === 'protobuf' ? decodeTracesProto(body) : decodeTracesJson(parseJsonBody(body));
      const rows = normalizeTraces(request, { projectId: project.id, groupByEnv: project.group_by_env, groupFuncsByService: project.group_funcs_by_service });
      return { rows, rejected: request.rejected ?? 0, rejectedMessage: request.rejectedMessage ?? '' };
    });
}
