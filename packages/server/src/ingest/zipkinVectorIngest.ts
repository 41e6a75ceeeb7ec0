import type { ProjectConfig } from '../config';
import { normalizeTraces } from './normalize';
import { normalizeVector } from './normalize/normalizeVector';
import type { IngestPipeline } from './ingestPipeline';
import { nowNs } from './logsIngest';
import type { PartialSuccess } from './otlpResponse';
import { parseJsonBody } from './requestBody';
import { parseVectorBody } from './vector';
import { zipkinToOtlp } from './zipkin';

/** The non-OTLP paths: Zipkin v2 spans (traces) and Vector NDJSON (logs). */
export type JsonIngest = (project: ProjectConfig, body: Buffer) => Promise<PartialSuccess | null>;

const options = (p: ProjectConfig) => ({ projectId: p.id, groupByEnv: p.group_by_env, groupFuncsByService: p.group_funcs_by_service });

export function createZipkinIngest(pipeline: IngestPipeline, now: () => bigint = nowNs): JsonIngest {
  return (project, body) =>
    pipeline.run('traces', body.length, () => {
      const request = zipkinToOtlp(parseJsonBody(body), now());
      return { rows: normalizeTraces(request, options(project)), rejected: request.rejected ?? 0, rejectedMessage: request.rejectedMessage ?? '' };
    });
}

export function createVectorIngest(pipeline: IngestPipeline, now: () => bigint = nowNs): JsonIngest {
  return (project, body) =>
    pipeline.run('logs', body.length, () => {
      const batch = parseVectorBody(body.toString('utf8'));
      return { rows: normalizeVector(batch.events, options(project), now()), rejected: batch.rejected, rejectedMessage: batch.rejectedMessage };
    });
}
