import { ingestRoutes, type AnyRouteContract } from '@lantern/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ProjectsService } from '../projects';
import type { IngestPipeline, SignalIngest } from './ingestPipeline';
import type { IngestSignal } from './ingestStats';
import { projectFromHeaders } from './ingestAuth';
import { encodeOtlpResponse, otlpResponseJson } from './otlpResponse';
import { AppError } from '../http/appError';
import { registerRawRoute } from '../http/routes';
import { bodyFormat, decodeBody } from './requestBody';
import type { PartialSuccess } from './otlpResponse';
import type { ProjectConfig } from '../config';

/** The non-OTLP paths (Zipkin, Vector: JSON bodies; Prometheus remote write: snappy protobuf). */
export type JsonIngest = (project: ProjectConfig, body: Buffer) => Promise<PartialSuccess | null>;

/**
 * OTLP/HTTP endpoints. Bodies are taken raw (any content type) so gzip and the size limit after
 * decompression are ours to apply; the compressed body is capped at the same limit by Fastify.
 */
export interface IngestHttpDeps {
  projects: ProjectsService;
  pipeline: IngestPipeline;
  otlp: Record<IngestSignal, SignalIngest>;
  zipkin: JsonIngest;
  vector: JsonIngest;
  promWrite: JsonIngest;
  maxBodyBytes: number;
}

const OTLP_ROUTES: Record<IngestSignal, AnyRouteContract> = {
  traces: ingestRoutes.otlpTraces,
  logs: ingestRoutes.otlpLogs,
  metrics: ingestRoutes.otlpMetrics,
};

export async function registerIngestHttpRoutes(app: FastifyInstance, deps: IngestHttpDeps): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: deps.maxBodyBytes }, (_req, body, done) =>
      done(null, body),
    );

    for (const signal of Object.keys(OTLP_ROUTES) as IngestSignal[]) {
      registerRawRoute(scope, OTLP_ROUTES[signal], async (_input, req, reply) => {
        const { project, format, body } = await readIngestRequest(req, deps, signal);
        const partial = await deps.otlp[signal](project, format, body);
        return sendOtlp(reply, signal, format, partial);
      });
    }

    // Zipkin v2 JSON (reference ingest §1.5): 202 like a Zipkin collector.
    registerRawRoute(scope, ingestRoutes.zipkinSpans, async (_input, req, reply) => {
      const { project, body } = await readIngestRequest(req, deps, 'traces', ['application/json']);
      const partial = await deps.zipkin(project, body);
      return reply.code(202).type('application/json').send(otlpResponseJson('traces', partial));
    });

    registerRawRoute(scope, ingestRoutes.prometheusWrite, (_input, req, reply) => promWriteRoute(req, reply, deps));

    // Vector's http sink (reference ingest §1.6); both paths the reference serves.
    for (const contract of [ingestRoutes.vectorLogs, ingestRoutes.vectorLogsAlt]) {
      registerRawRoute(scope, contract, async (_input, req, reply) => {
        const { project, body } = await readIngestRequest(
          req,
          deps,
          'logs',
          ['application/x-ndjson', 'application/json'],
          VECTOR_HINT,
        );
        const partial = await deps.vector(project, body);
        return reply.type('application/json').send(otlpResponseJson('logs', partial));
      });
    }
  });
}

/**
 * Prometheus remote write 1.0 (`remote_write: [{url: <site>/api/v1/prometheus/write}]`, ingestRoutes.prometheusWrite, with the
 * DSN as a bearer token, basic-auth password or `?dsn=`). 204 once stored. Prometheus drops a
 * batch answered 4xx and retries 5xx (and 429 only when configured to), so a full queue is a 503
 * here, and a batch with samples that cannot be mapped is a 400 after the others were stored.
 */
async function promWriteRoute(req: FastifyRequest, reply: FastifyReply, deps: IngestHttpDeps) {
  try {
    const project = projectFromHeaders(deps.projects, (name) => header(req.headers[name]), queryDsn(req));
    const enc = (header(req.headers['content-encoding']) ?? '').trim().toLowerCase();
    if (enc !== 'snappy')
      throw new AppError(
        'invalid_input',
        'unsupported_encoding',
        `remote write bodies are snappy-compressed protobuf (Content-Encoding: snappy), not ${JSON.stringify(enc || 'identity')}`,
      );
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const partial = await deps.promWrite(project, body).catch((err: unknown) => {
      if (err instanceof AppError && err.type === 'rate_limited')
        throw new AppError('unavailable', err.code, err.message, err.retryAfterSec);
      throw err;
    });
    if (partial)
      throw new AppError(
        'invalid_input',
        'samples_rejected',
        `${partial.rejected} samples not stored (the others are): ${partial.message}`,
      );
    return reply.code(204).send();
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'samples_rejected')) deps.pipeline.refused('metrics');
    throw err;
  }
}

const VECTOR_HINT = 'use encoding.codec = "json" and framing.method = "newline_delimited" in the Vector sink';

/**
 * Auth, content type and decompression for one ingest request; a refusal here is counted
 * against the signal before it is thrown (the error handler renders it).
 */
async function readIngestRequest(
  req: FastifyRequest,
  deps: IngestHttpDeps,
  signal: IngestSignal,
  jsonTypes?: string[],
  hint = '',
) {
  try {
    const project = projectFromHeaders(deps.projects, (name) => header(req.headers[name]), queryDsn(req));
    const format = jsonTypes
      ? jsonContentType(req.headers['content-type'], jsonTypes, hint)
      : bodyFormat(req.headers['content-type']);
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const body = await decodeBody(raw, header(req.headers['content-encoding']), deps.maxBodyBytes);
    return { project, format, body };
  } catch (err) {
    deps.pipeline.refused(signal);
    throw err;
  }
}

function sendOtlp(
  reply: FastifyReply,
  signal: IngestSignal,
  format: 'protobuf' | 'json',
  partial: Parameters<typeof encodeOtlpResponse>[1],
) {
  if (format === 'protobuf')
    return reply.type('application/x-protobuf').send(Buffer.from(encodeOtlpResponse(signal, partial)));
  return reply.type('application/json').send(otlpResponseJson(signal, partial));
}

function jsonContentType(contentType: string | undefined, allowed: string[], hint: string): 'json' {
  const ct = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (allowed.includes(ct)) return 'json';
  throw new AppError(
    'invalid_input',
    'unsupported_content_type',
    `Content-Type ${JSON.stringify(ct)} is not supported here (use ${allowed.join(' or ')})${hint ? `; ${hint}` : ''}`,
  );
}

function queryDsn(req: FastifyRequest): string | undefined {
  const q = req.query as Record<string, unknown> | undefined;
  return typeof q?.dsn === 'string' ? q.dsn : undefined;
}

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
