import { AppError } from '../http/appError';
import type { ProjectOptions, Produced } from './produced';
import { normalizeTraces } from './normalize';
import { normalizeVector } from './normalize/normalizeVector';
import { parseJsonBody } from './requestBody';
import { parseVectorBody } from './vector';
import { zipkinToOtlp } from './zipkin';

/** The non-OTLP paths: Zipkin v2 spans (traces) and Vector JSON (logs: NDJSON, an array or concatenated objects). Run on the prepare pool. */
export function produceZipkin(body: Buffer, project: ProjectOptions, now: bigint): Produced {
  const request = zipkinToOtlp(parseJsonBody(body), now);
  return {
    rows: normalizeTraces(request, project),
    rejected: request.rejected ?? 0,
    rejectedMessage: request.rejectedMessage ?? '',
  };
}

export function produceVector(body: Buffer, project: ProjectOptions, now: bigint): Produced {
  const batch = parseVectorBody(body.toString('utf8'));
  // Vector does not read a partial-success body: a batch with nothing to store is an error it logs.
  if (batch.events.length === 0 && batch.rejected > 0)
    throw new AppError(
      'invalid_input',
      'invalid_json',
      `no log record stored: ${batch.rejected} not readable, ${batch.rejectedMessage}`,
    );
  return {
    rows: normalizeVector(batch.events, project, now),
    rejected: batch.rejected,
    rejectedMessage: batch.rejectedMessage,
  };
}
