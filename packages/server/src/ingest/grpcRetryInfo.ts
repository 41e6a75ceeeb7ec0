import protobuf from 'protobufjs';

/** The `google.rpc.Status` detail trailer of gRPC (binary metadata, base64 on the wire). */
export const STATUS_DETAILS_KEY = 'grpc-status-details-bin';
export const RETRY_INFO_TYPE = 'type.googleapis.com/google.rpc.RetryInfo';

/**
 * `google.rpc.Status{code, message, details: [Any(google.rpc.RetryInfo{retry_delay})]}`, encoded.
 * OTLP exporters retry RESOURCE_EXHAUSTED only when the status carries a RetryInfo (the spec's
 * "retryable when the server signals recovery"; the Collector's exporterhelper drops the batch
 * otherwise), and wait its delay before they do.
 */
export function retryStatusDetails(code: number, message: string, retryAfterSec: number): Buffer {
  const field = (n: number, wireType: number) => (n << 3) | wireType;
  const duration = protobuf.Writer.create().uint32(field(1, 0)).int64(retryAfterSec).finish();
  const retryInfo = protobuf.Writer.create().uint32(field(1, 2)).bytes(duration).finish();
  const any = protobuf.Writer.create()
    .uint32(field(1, 2))
    .string(RETRY_INFO_TYPE)
    .uint32(field(2, 2))
    .bytes(retryInfo)
    .finish();
  const status = protobuf.Writer.create()
    .uint32(field(1, 0))
    .int32(code)
    .uint32(field(2, 2))
    .string(message)
    .uint32(field(3, 2))
    .bytes(any)
    .finish();
  return Buffer.from(status);
}
