import * as grpc from '@grpc/grpc-js';
import type { ProjectConfig } from '../config';
import { AppError, type AppErrorType } from '../http/appError';
import type { ProjectsService } from '../projects';
import { projectFromHeaders } from './ingestAuth';
import { encodeTraceResponse } from './otlpResponse';
import { encodeMetricsResponse, type MetricsIngest } from '../metrics/ingest';
import type { TraceIngest } from './tracesIngest';

/**
 * OTLP/gRPC receiver. Messages are taken as raw bytes and go through the same decode,
 * normalisation and group commit as OTLP/HTTP; grpc-js handles message compression.
 */
const GRPC_CODE: Record<AppErrorType, grpc.status> = {
  invalid_input: grpc.status.INVALID_ARGUMENT,
  unauthenticated: grpc.status.UNAUTHENTICATED,
  forbidden: grpc.status.PERMISSION_DENIED,
  not_found: grpc.status.NOT_FOUND,
  too_large: grpc.status.RESOURCE_EXHAUSTED,
  rate_limited: grpc.status.RESOURCE_EXHAUSTED,
  unavailable: grpc.status.UNAVAILABLE,
  internal: grpc.status.INTERNAL,
};

const raw = (b: Buffer) => b;

const exportService = (path: string): grpc.ServiceDefinition => ({
  Export: {
    path,
    requestStream: false,
    responseStream: false,
    requestSerialize: raw,
    requestDeserialize: raw,
    responseSerialize: raw,
    responseDeserialize: raw,
  },
});

export interface GrpcIngestDeps {
  projects: ProjectsService;
  traces: TraceIngest;
  metrics: MetricsIngest;
  maxBodyBytes: number;
  log: { error(obj: object, msg: string): void };
}

export function createIngestGrpcServer(deps: GrpcIngestDeps): grpc.Server {
  const server = new grpc.Server({
    'grpc.max_receive_message_length': deps.maxBodyBytes,
    'grpc.max_send_message_length': 4 * 1024 * 1024,
  });
  const exportHandler =
    (ingest: (project: ProjectConfig, body: Buffer) => Promise<Uint8Array>) =>
    (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
      const md = call.metadata;
      const get = (name: string) => {
        const v = md.get(name)[0];
        return v === undefined ? undefined : String(v);
      };
      (async () => {
        const project = projectFromHeaders(deps.projects, get);
        callback(null, Buffer.from(await ingest(project, call.request)));
      })().catch((err: unknown) => {
        if (err instanceof AppError) {
          const trailer = new grpc.Metadata();
          if (err.retryAfterSec) trailer.set('retry-after', String(err.retryAfterSec));
          callback({ code: GRPC_CODE[err.type], details: err.message, metadata: trailer });
          return;
        }
        deps.log.error({ err }, 'grpc export failed');
        callback({ code: grpc.status.INTERNAL, details: 'internal error' });
      });
    };
  server.addService(exportService('/opentelemetry.proto.collector.trace.v1.TraceService/Export'), {
    Export: exportHandler(async (project, body) => encodeTraceResponse(await deps.traces(project, 'protobuf', body))),
  });
  server.addService(exportService('/opentelemetry.proto.collector.metrics.v1.MetricsService/Export'), {
    Export: exportHandler(async (project, body) => encodeMetricsResponse(await deps.metrics(project, 'protobuf', body))),
  });
  return server;
}

export function bindGrpc(server: grpc.Server, addr: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(addr, grpc.ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port)));
  });
}
