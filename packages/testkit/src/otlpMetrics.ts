import { Metadata } from '@grpc/grpc-js';
import { OTLPMetricExporter as GrpcMetricExporter } from '@opentelemetry/exporter-metrics-otlp-grpc';
import { AggregationTemporalityPreference } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AggregationType,
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
  type ViewOptions,
} from '@opentelemetry/sdk-metrics';
import type { ExportResult } from '@opentelemetry/core';

/**
 * Real OpenTelemetry JS metrics SDK clients pointed at a Lantern server, for tests: the official
 * OTLP metric exporters over HTTP/protobuf and gRPC with the DSN header. Exports happen when the
 * test calls `flush()`, and each export's result is captured.
 */
export type MetricsTransport = 'http-proto' | 'grpc';

export interface TestMeter {
  provider: MeterProvider;
  meter: ReturnType<MeterProvider['getMeter']>;
  results: ExportResult[];
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

export function createTestMeter(
  transport: MetricsTransport,
  opts: { httpUrl: string; grpcUrl: string; dsn: string; serviceName?: string; delta?: boolean; views?: ViewOptions[] },
): TestMeter {
  const temporalityPreference = opts.delta
    ? AggregationTemporalityPreference.DELTA
    : AggregationTemporalityPreference.CUMULATIVE;
  let inner: PushMetricExporter;
  if (transport === 'grpc') {
    const metadata = new Metadata();
    metadata.set('lantern-dsn', opts.dsn);
    inner = new GrpcMetricExporter({ url: opts.grpcUrl, metadata, temporalityPreference });
  } else {
    inner = new ProtoMetricExporter({
      url: `${opts.httpUrl}/v1/metrics`,
      headers: { 'lantern-dsn': opts.dsn },
      temporalityPreference,
    });
  }
  const results: ExportResult[] = [];
  const exporter: PushMetricExporter = {
    export: (metrics, done) =>
      inner.export(metrics, (r) => {
        results.push(r);
        done(r);
      }),
    forceFlush: () => inner.forceFlush(),
    shutdown: () => inner.shutdown(),
    selectAggregationTemporality: inner.selectAggregationTemporality?.bind(inner),
    selectAggregation: inner.selectAggregation?.bind(inner),
  };
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const provider = new MeterProvider({
    // As in an app: the SDK's default resource (telemetry.sdk.language, name and version) under ours.
    resource: defaultResource().merge(
      resourceFromAttributes({ 'service.name': opts.serviceName ?? 'test-service', 'host.name': 'test-host' }),
    ),
    readers: [reader],
    views: opts.views,
  });
  return {
    provider,
    meter: provider.getMeter('lantern-tests', '1.0.0'),
    results,
    flush: () => reader.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

export { AggregationType };

/**
 * Waits for the next minute when less than `ms` is left of this one. A sum over a metric reads the
 * finished minutes only (the current one too only while it is all the metric has), so the exports
 * a test adds up together must land in one minute: each export is stamped with its own time.
 */
export async function clearOfMinuteEnd(ms = 10_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < ms) await new Promise((r) => setTimeout(r, left + 50));
}
