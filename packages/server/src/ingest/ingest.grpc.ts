import * as grpc from '@grpc/grpc-js';
import { AppError, type AppErrorType } from '../http/appError';
import type { ProjectsService } from '../projects';
import type { IngestPipeline, SignalIngest } from './ingestPipeline';
import type { IngestSignal } from './ingestStats';
import { projectFromHeaders } from './ingestAuth';
import { retryStatusDetails, STATUS_DETAILS_KEY } from './grpcRetryInfo';
import { encodeOtlpResponse } from './otlpResponse';

/**
 * OTLP/gRPC receiver. Messages are taken as raw bytes and go through the same decode,
 * normalisation and group commit as OTLP/HTTP; grpc-js handles message compression (identity,
 * deflate, gzip: see announceAcceptedEncodings).
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

const SERVICE_PATHS: Record<IngestSignal, string> = {
  traces: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
  logs: '/opentelemetry.proto.collector.logs.v1.LogsService/Export',
  metrics: '/opentelemetry.proto.collector.metrics.v1.MetricsService/Export',
};

const raw = (b: Buffer) => b;

function exportService(path: string): grpc.ServiceDefinition {
  return {
    Export: {
      path,
      requestStream: false,
      responseStream: false,
      requestSerialize: raw,
      requestDeserialize: raw,
      responseSerialize: raw,
      responseDeserialize: raw,
    },
  };
}

export interface GrpcIngestDeps {
  projects: ProjectsService;
  pipeline: IngestPipeline;
  otlp: Record<IngestSignal, SignalIngest>;
  maxBodyBytes: number;
  log: { error(obj: object, msg: string): void };
}

/**
 * grpc-js decompresses messages before any handler or interceptor sees them and has no way to add
 * a codec (server-interceptors.ts `decompressMessage`: identity, deflate and gzip, anything else
 * UNIMPLEMENTED). So a message compressed with `grpc-encoding: zstd` or `snappy` (both offered by
 * the Collector's otlp exporter) ends its call with UNIMPLEMENTED "Received message compressed
 * with unsupported encoding". The gRPC spec (compression.md) wants that answer to carry
 * `grpc-accept-encoding`, which grpc-js only writes on response headers, and an answer sent before
 * any headers is trailers-only without them; so each call's response headers go out as soon as its
 * metadata has arrived, and the refusal comes in trailers after `grpc-accept-encoding:
 * identity,deflate,gzip`. (grpc-js clients read that header and stop compressing with an
 * algorithm the server lacks.)
 */
export const announceAcceptedEncodings: grpc.ServerInterceptor = (_method, call) =>
  new grpc.ServerInterceptingCall(call, {
    start(next) {
      next({
        onReceiveMetadata(metadata, forward) {
          forward(metadata);
          call.sendMetadata(new grpc.Metadata());
        },
      });
    },
  });

export function createIngestGrpcServer(deps: GrpcIngestDeps): grpc.Server {
  const server = new grpc.Server({
    'grpc.max_receive_message_length': deps.maxBodyBytes,
    'grpc.max_send_message_length': 4 * 1024 * 1024,
    interceptors: [announceAcceptedEncodings],
  });
  for (const signal of Object.keys(SERVICE_PATHS) as IngestSignal[]) {
    server.addService(exportService(SERVICE_PATHS[signal]), {
      Export: (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
        const get = (name: string) => {
          const v = call.metadata.get(name)[0];
          return v === undefined ? undefined : String(v);
        };
        (async () => {
          let project;
          try {
            project = projectFromHeaders(deps.projects, get);
          } catch (err) {
            deps.pipeline.refused(signal);
            throw err;
          }
          const partial = await deps.otlp[signal](project, 'protobuf', call.request);
          callback(null, Buffer.from(encodeOtlpResponse(signal, partial)));
        })().catch((err: unknown) => {
          if (err instanceof AppError) {
            const code = GRPC_CODE[err.type];
            const trailer = new grpc.Metadata();
            if (err.retryAfterSec) trailer.set('retry-after', String(err.retryAfterSec));
            // A full queue or a store that is down passes: say when to retry, in the form exporters
            // read (too_large, also RESOURCE_EXHAUSTED, is permanent and gets none).
            if (err.type === 'rate_limited' || err.type === 'unavailable')
              trailer.set(STATUS_DETAILS_KEY, retryStatusDetails(code, err.message, err.retryAfterSec ?? 1));
            callback({ code, details: err.message, metadata: trailer });
            return;
          }
          deps.log.error({ err }, 'grpc export failed');
          callback({ code: grpc.status.INTERNAL, details: 'internal error' });
        });
      },
    });
  }
  return server;
}

/**
 * Sends grpc-js's own log lines (by default `E <message>` on stderr) into the server's log, as one
 * process-wide setting. A failed bind is left out: bindGrpc's caller reports it, in one line.
 */
export function routeGrpcLogs(log: { error(msg: string): void; info(msg: string): void; debug(msg: string): void }) {
  const text = (message: unknown, rest: unknown[]) => ['grpc-js:', message, ...rest].map(String).join(' ');
  grpc.setLogger({
    error: (message: unknown, ...rest: unknown[]) => {
      if (!/^No address added/.test(String(message))) log.error(text(message, rest));
    },
    info: (message: unknown, ...rest: unknown[]) => log.info(text(message, rest)),
    debug: (message: unknown, ...rest: unknown[]) => log.debug(text(message, rest)),
  });
}

export function bindGrpc(server: grpc.Server, addr: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(addr, grpc.ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port)));
  });
}
