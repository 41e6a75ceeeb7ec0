import type { FastifyInstance } from 'fastify';
import type { ProjectsService } from '../projects';
import { projectFromHeaders } from './ingestAuth';
import { encodeTraceResponse, traceResponseJson } from './otlpResponse';
import { bodyFormat, decodeBody } from './requestBody';
import { encodeMetricsResponse, metricsResponseJson, type MetricsIngest } from '../metrics/ingest';
import type { TraceIngest } from './tracesIngest';

/**
 * OTLP/HTTP endpoints. Bodies are taken raw (any content type) so gzip and the size limit after
 * decompression are ours to apply; the compressed body is capped at the same limit by Fastify.
 */
export async function registerIngestHttpRoutes(
  app: FastifyInstance,
  deps: { projects: ProjectsService; traces: TraceIngest; metrics: MetricsIngest; maxBodyBytes: number },
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: deps.maxBodyBytes }, (_req, body, done) => done(null, body));

    scope.post('/v1/traces', async (req, reply) => {
      const project = projectFromHeaders(deps.projects, (name) => header(req.headers[name]));
      const format = bodyFormat(req.headers['content-type']);
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const body = await decodeBody(raw, header(req.headers['content-encoding']), deps.maxBodyBytes);
      const partial = await deps.traces(project, format, body);
      if (format === 'protobuf') {
        return reply.type('application/x-protobuf').send(Buffer.from(encodeTraceResponse(partial)));
      }
      return reply.type('application/json').send(traceResponseJson(partial));
    });

    scope.post('/v1/metrics', async (req, reply) => {
      const project = projectFromHeaders(deps.projects, (name) => header(req.headers[name]));
      const format = bodyFormat(req.headers['content-type']);
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const body = await decodeBody(raw, header(req.headers['content-encoding']), deps.maxBodyBytes);
      const partial = await deps.metrics(project, format, body);
      if (format === 'protobuf') {
        return reply.type('application/x-protobuf').send(Buffer.from(encodeMetricsResponse(partial)));
      }
      return reply.type('application/json').send(metricsResponseJson(partial));
    });
  });
}

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
