// Ingest: OTLP over HTTP and gRPC in, committed rows out. Owns decoding, normalisation, the
// group-commit batcher and backpressure; it never answers success before storage has the rows.
export { Batcher, QueueFullError, type BatcherStats } from './batcher';
export { createTraceIngest, type SpanBatcher, type TraceIngest } from './tracesIngest';
export { createPreparePool, type PreparePool } from './preparePool';
export { registerIngestHttpRoutes } from './ingest.http';
export { createIngestGrpcServer, bindGrpc } from './ingest.grpc';
export type { SpanRow, AttrMap, AttrValue } from './spanRow';
