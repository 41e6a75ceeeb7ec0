// Ingest: OTLP (traces, logs) over HTTP and gRPC, Zipkin and Vector in; committed rows out. Owns
// decoding, normalisation, the group-commit batcher, backpressure and ingest self-telemetry; it
// never answers success before storage has the rows.
export { Batcher, QueueFullError, type BatcherStats } from './batcher';
export { createIngest, type Ingest } from './createIngest';
export { createPreparePool, type PreparePool } from './preparePool';
export type { SpanBatcher } from './ingestPipeline';
export { bindGrpc } from './ingest.grpc';
export type { SpanRow, AttrMap, AttrValue } from './spanRow';
