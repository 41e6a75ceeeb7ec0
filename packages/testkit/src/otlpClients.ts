import { Metadata } from '@grpc/grpc-js';
import { OTLPTraceExporter as GrpcTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as HttpJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { ExportResult } from '@opentelemetry/core';
import { OTLPLogExporter as GrpcLogExporter } from '@opentelemetry/exporter-logs-otlp-grpc';
import { OTLPLogExporter as HttpJsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import {
  BatchLogRecordProcessor,
  LoggerProvider,
  type LogRecordExporter,
  type ReadableLogRecord,
} from '@opentelemetry/sdk-logs';

/**
 * Real OpenTelemetry JS SDK clients pointed at a Lantern server, for tests: the official OTLP
 * exporters over gRPC, HTTP/protobuf and HTTP/JSON, with the DSN header. Results of every export
 * are captured so a test can tell what the server acknowledged.
 */
export type Transport = 'grpc' | 'http-proto' | 'http-json';

export interface ExporterOptions {
  httpUrl: string;
  grpcUrl: string;
  dsn: string;
  /** Per export (the exporters' default: 10 s); for a server slowed by a busy machine. */
  timeoutMillis?: number;
}

export interface TestTracer {
  provider: NodeTracerProvider;
  tracer: ReturnType<NodeTracerProvider['getTracer']>;
  results: ExportResult[];
  /** Flushes and shuts down; resolves when every export has been answered. */
  shutdown(): Promise<void>;
}

export function exporterFor(transport: Transport, opts: ExporterOptions): SpanExporter {
  if (transport === 'grpc') {
    const metadata = new Metadata();
    metadata.set('lantern-dsn', opts.dsn);
    return new GrpcTraceExporter({ url: opts.grpcUrl, metadata, timeoutMillis: opts.timeoutMillis });
  }
  const config = {
    url: `${opts.httpUrl}/v1/traces`,
    headers: { 'lantern-dsn': opts.dsn },
    timeoutMillis: opts.timeoutMillis,
  };
  return transport === 'http-proto' ? new ProtoTraceExporter(config) : new HttpJsonTraceExporter(config);
}

class CapturingExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    readonly results: ExportResult[],
  ) {}
  export(spans: ReadableSpan[], done: (r: ExportResult) => void): void {
    this.inner.export(spans, (r) => {
      this.results.push(r);
      done(r);
    });
  }
  shutdown() {
    return this.inner.shutdown();
  }
  forceFlush() {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

export function createTestTracer(transport: Transport, opts: ExporterOptions & { serviceName?: string }): TestTracer {
  const results: ExportResult[] = [];
  const exporter = new CapturingExporter(exporterFor(transport, opts), results);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': opts.serviceName ?? 'test-service', 'host.name': 'test-host' }),
    spanProcessors: [new BatchSpanProcessor(exporter, { maxExportBatchSize: 512, scheduledDelayMillis: 50 })],
  });
  return {
    provider,
    tracer: provider.getTracer('lantern-tests', '1.0.0'),
    results,
    shutdown: () => provider.shutdown(),
  };
}

export function logExporterFor(transport: Transport, opts: ExporterOptions): LogRecordExporter {
  if (transport === 'grpc') {
    const metadata = new Metadata();
    metadata.set('lantern-dsn', opts.dsn);
    return new GrpcLogExporter({ url: opts.grpcUrl, metadata, timeoutMillis: opts.timeoutMillis });
  }
  const config = {
    url: `${opts.httpUrl}/v1/logs`,
    headers: { 'lantern-dsn': opts.dsn },
    timeoutMillis: opts.timeoutMillis,
  };
  return transport === 'http-proto' ? new ProtoLogExporter(config) : new HttpJsonLogExporter(config);
}

export interface TestLogger {
  logger: ReturnType<LoggerProvider['getLogger']>;
  results: ExportResult[];
  shutdown(): Promise<void>;
}

/** The OpenTelemetry JS logs SDK with the official OTLP log exporter for `transport`. */
export function createTestLogger(transport: Transport, opts: ExporterOptions & { serviceName?: string }): TestLogger {
  const results: ExportResult[] = [];
  const inner = logExporterFor(transport, opts);
  const exporter: LogRecordExporter = {
    export(records: ReadableLogRecord[], done: (r: ExportResult) => void) {
      inner.export(records, (r) => {
        results.push(r);
        done(r);
      });
    },
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': opts.serviceName ?? 'test-service', 'host.name': 'test-host' }),
    processors: [new BatchLogRecordProcessor({ exporter, maxExportBatchSize: 512, scheduledDelayMillis: 50 })],
  });
  return { logger: provider.getLogger('lantern-tests', '1.0.0'), results, shutdown: () => provider.shutdown() };
}
