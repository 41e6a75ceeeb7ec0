import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ProjectsService } from '../projects';
import type { IngestPipeline, SignalIngest } from './ingestPipeline';
import type { IngestSignal } from './ingestStats';
import { projectFromHeaders } from './ingestAuth';
import { encodeOtlpResponse, otlpResponseJson } from './otlpResponse';
import { bodyFormat, decodeBody } from './requestBody';

/**
 * OTLP/HTTP endpoints. Bodies are taken raw (any content type) so gzip and the size limit after
 * decompression are ours to apply; the compressed body is capped at the same limit by Fastify.
 */
export interface IngestHttpDeps {
  projects: ProjectsService;
  pipeline: IngestPipeline;
  otlp: Record<IngestSignal, SignalIngest>;
  maxBodyBytes: number;
}

const OTLP_PATHS: Record<IngestSignal, string> = { traces: '/v1/traces', logs: '/v1/logs' };

export async function registerIngestHttpRoutes(app: FastifyInstance, deps: IngestHttpDeps): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: deps.maxBodyBytes }, (_req, body, done) => done(null, body));

    for (const signal of Object.keys(OTLP_PATHS) as IngestSignal[]) {
      scope.post(OTLP_PATHS[signal], async (req, reply) => {
        const { project, format, body } = await readIngestRequest(req, deps, signal, 'otlp');
        const partial = await deps.otlp[signal](project, format, body);
        return sendOtlp(reply, signal, format, partial);
      });
    }
  });
}

/**
 * Auth, content type and decompression for one ingest request; a refusal here is counted
 * against the signal before it is thrown (the error handler renders it).
 */
export async function readIngestRequest(req: FastifyRequest, deps: IngestHttpDeps, signal: IngestSignal, kind: 'otlp' | 'json') {
  try {
    const project = projectFromHeaders(deps.projects, (name) => header(req.headers[name]), queryDsn(req));
    const format = kind === 'otlp' ? bodyFormat(req.headers['content-type']) : 'json';
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const body = await decodeBody(raw, header(req.headers['content-encoding']), deps.maxBodyBytes);
    return { project, format, body };
  } catch (err) {
    deps.pipeline.refused(signal);
    throw err;
  }
}

function sendOtlp(reply: FastifyReply, signal: IngestSignal, format: 'protobuf' | 'json', partial: Parameters<typeof encodeOtlpResponse>[1]) {
  if (format === 'protobuf') return reply.type('application/x-protobuf').send(Buffer.from(encodeOtlpResponse(signal, partial)));
  return reply.type('application/json').send(otlpResponseJson(signal, partial));
}

function queryDsn(req: FastifyRequest): string | undefined {
  const q = req.query as Record<string, unknown> | undefined;
  return typeof q?.dsn === 'string' ? q.dsn : undefined;
}

export function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
