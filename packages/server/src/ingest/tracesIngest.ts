import type { ProjectOptions, Produced } from './produced';
import { normalizeTraces } from './normalize';
import { decodeTracesJson, decodeTracesProto } from './otlp';
import { parseJsonBody, type BodyFormat } from './requestBody';

/** OTLP traces (HTTP and gRPC): decode and normalise. Runs on the prepare pool. */
export function produceOtlpTraces(body: Buffer, format: BodyFormat, project: ProjectOptions): Produced {
  const request = format === 'protobuf' ? decodeTracesProto(body) : decodeTracesJson(parseJsonBody(body));
  // Spans the decoder dropped (bad ids, values nested too deep) are reported as partial success.
  return {
    rows: normalizeTraces(request, project),
    rejected: request.rejected ?? 0,
    rejectedMessage: request.rejectedMessage ?? '',
    attrsWellFormed: format === 'protobuf',
  };
}
