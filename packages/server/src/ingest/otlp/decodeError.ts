/**
 * The only error the OTLP decoders throw for bad input. Its message names the field that was
 * wrong (e.g. `resourceSpans[0].scopeSpans[0].spans[3].traceId: ...`) so the client can fix it;
 * the HTTP/gRPC shells map it to 400 / INVALID_ARGUMENT.
 */
export class OtlpDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OtlpDecodeError';
  }
}
