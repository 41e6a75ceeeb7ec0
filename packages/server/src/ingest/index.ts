// Ingest: OTLP (traces, logs) over HTTP and gRPC, Zipkin and Vector in; committed rows out. Owns
// decoding, normalisation, the group-commit batcher, backpressure and ingest self-telemetry; it
// never answers success before storage has the rows.
export { Batcher, QueueFullError, type BatcherStats } from './batcher';
export { createIngest, type Ingest } from './createIngest';
export { createPreparePool, type PoolJob, type PreparePool } from './preparePool';
export type { SpanBatcher } from './ingestPipeline';
export { bindGrpc, routeGrpcLogs } from './ingest.grpc';
export type { SpanRow, AttrMap, AttrValue } from './spanRow';
// Building blocks of the metrics area's own ingest (OTLP metrics, Prometheus remote write).
export { BatcherClosedError } from './batcher';
export { OtlpDecodeError, type OtlpKeyValue } from './otlp';
export type { PbInt64, PbKeyValue } from './otlp/protoRoot';
export { pbInt64, pbUint64 } from './otlp/int64';
export { readKeyValue } from './otlp/protoAttrs';
export { WireError, WireReader, WIRE_FIXED64, WIRE_LEN, WIRE_VARINT } from './otlp/protoWire';
export { cleanAttrKey } from './normalize';
export { addAttrs, convertAnyValue } from './normalize/attrValue';
export type { PartialSuccess } from './otlpResponse';
export { parseJsonBody, type BodyFormat } from './requestBody';
export { decodeSnappyBlock, snappyBlockLength } from './compression/snappy';
export { fixKeyValues } from './otlp/decodeProto';
// The project of a request by its DSN token (the Prometheus query API authenticates the same way).
export { projectFromHeaders } from './ingestAuth';
