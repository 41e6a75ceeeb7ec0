import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { AppError } from '../http/appError';
import { createProjectsService } from '../projects';
import { bindGrpc, createIngestGrpcServer } from './ingest.grpc';
import { RETRY_INFO_TYPE, STATUS_DETAILS_KEY } from './grpcRetryInfo';

/**
 * The gRPC answer to a request the server cannot take now. OTLP exporters (the Collector's
 * exporterhelper: `case codes.ResourceExhausted: return retryInfo != nil`) retry
 * RESOURCE_EXHAUSTED only when the status carries a google.rpc.RetryInfo, and drop the batch
 * otherwise: a full queue must carry one, a body too large must not.
 */
const Status = new protobuf.Type('Status')
  .add(new protobuf.Field('code', 1, 'int32'))
  .add(new protobuf.Field('message', 2, 'string'))
  .add(new protobuf.Field('details', 3, 'Any', 'repeated'))
  .add(
    new protobuf.Type('Any')
      .add(new protobuf.Field('typeUrl', 1, 'string'))
      .add(new protobuf.Field('value', 2, 'bytes')),
  );
const RetryInfo = new protobuf.Type('RetryInfo')
  .add(new protobuf.Field('retryDelay', 1, 'Duration'))
  .add(new protobuf.Type('Duration').add(new protobuf.Field('seconds', 1, 'int64')));
new protobuf.Root().add(Status).add(RetryInfo);

/** The Collector's rule: retry RESOURCE_EXHAUSTED only with a RetryInfo; here its delay in seconds. */
function retryDelay(err: grpc.ServiceError): number | undefined {
  const [details] = err.metadata.get(STATUS_DETAILS_KEY);
  if (!(details instanceof Buffer)) return undefined;
  const status = Status.toObject(Status.decode(details)) as {
    code: number;
    details?: { typeUrl: string; value: Uint8Array }[];
  };
  expect(status.code).toBe(err.code);
  const info = status.details?.find((d) => d.typeUrl === RETRY_INFO_TYPE);
  if (!info) return undefined;
  const r = RetryInfo.toObject(RetryInfo.decode(info.value), { longs: Number }) as {
    retryDelay?: { seconds?: number };
  };
  return r.retryDelay?.seconds ?? 0;
}

describe('OTLP/gRPC refusals', () => {
  let server: grpc.Server;
  let port = 0;
  let refusal: AppError;
  const config = loadConfig({ env: {} });
  beforeAll(async () => {
    const refuse = async () => {
      throw refusal;
    };
    server = createIngestGrpcServer({
      projects: createProjectsService(config),
      pipeline: { run: refuse, refused: () => {} },
      otlp: { traces: refuse, logs: refuse, metrics: refuse },
      maxBodyBytes: 1 << 20,
      log: { error: () => {} },
    });
    port = await bindGrpc(server, '127.0.0.1:0');
  });
  afterAll(() => new Promise<void>((resolve) => server.tryShutdown(() => resolve())));

  const exportTraces = () =>
    new Promise<grpc.ServiceError>((resolve, reject) => {
      const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
      const md = new grpc.Metadata();
      md.set('lantern-dsn', config.projects[0].tokens[0]);
      client.makeUnaryRequest(
        '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
        (b: Buffer) => b,
        (b: Buffer) => b,
        Buffer.alloc(0),
        md,
        (err) => {
          client.close();
          if (err) resolve(err);
          else reject(new Error('the export was accepted'));
        },
      );
    });

  it('answers a full queue with RESOURCE_EXHAUSTED and a RetryInfo of its Retry-After', async () => {
    refusal = new AppError('rate_limited', 'queue_full', 'ingest queue is full; retry later', 3);
    const err = await exportTraces();
    expect(err.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(retryDelay(err)).toBe(3);
    expect(err.metadata.get('retry-after')).toEqual(['3']);
  });

  it('answers a store that is down with UNAVAILABLE and a RetryInfo', async () => {
    refusal = new AppError('unavailable', 'store_unavailable', 'the store is not answering', 5);
    const err = await exportTraces();
    expect(err.code).toBe(grpc.status.UNAVAILABLE);
    expect(retryDelay(err)).toBe(5);
  });

  it('gives a body too large no RetryInfo: sending it again cannot succeed', async () => {
    refusal = new AppError('too_large', 'too_many_rows', 'more rows than allowed');
    const err = await exportTraces();
    expect(err.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(retryDelay(err)).toBeUndefined();
  });
});
