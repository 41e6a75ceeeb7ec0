import { ingestRoutes, type ProjectResponse } from '@lantern/shared';

/**
 * Copy-paste configuration for sending metrics to a project (the Metrics help page), built from
 * the DSNs the server reports. Pure so the exact text can be pinned by tests.
 */

/** The DSN's token: what Prometheus sends as its bearer token. */
export function dsnToken(dsn: string): string {
  try {
    return decodeURIComponent(new URL(dsn).username);
  } catch {
    return '';
  }
}

/**
 * An OpenTelemetry Collector (contrib) reading host metrics and scraping a Prometheus endpoint,
 * exporting both to the project over OTLP/gRPC.
 */
export function infraCollectorSnippet(project: ProjectResponse): string {
  const grpc = project.grpc.endpoint.replace(/^[a-z]+:\/\//, '');
  return [
    'receivers:',
    '  hostmetrics:',
    '    collection_interval: 15s',
    '    scrapers:',
    '      cpu:',
    '      load:',
    '      memory:',
    '      disk:',
    '      filesystem:',
    '      network:',
    '      paging:',
    '  prometheus:',
    '    config:',
    '      scrape_configs:',
    '        - job_name: my-app',
    '          scrape_interval: 15s',
    "          static_configs: [{ targets: ['localhost:9100'] }]",
    'processors:',
    '  resourcedetection:',
    '    detectors: [env, system]',
    '  batch:',
    '    send_batch_size: 10000',
    '    timeout: 10s',
    'exporters:',
    '  otlp/lantern:',
    `    endpoint: ${grpc}`,
    '    tls:',
    `      insecure: ${project.grpc.endpoint.startsWith('https') ? 'false' : 'true'}`,
    '    headers:',
    `      lantern-dsn: '${project.grpc.dsn}'`,
    'service:',
    '  pipelines:',
    '    metrics:',
    '      receivers: [hostmetrics, prometheus]',
    '      processors: [resourcedetection, batch]',
    '      exporters: [otlp/lantern]',
  ].join('\n');
}

/** Prometheus itself writing everything it scrapes into the project (remote write). */
export function prometheusRemoteWriteSnippet(project: ProjectResponse): string {
  return [
    'remote_write:',
    `  - url: ${project.http.endpoint.replace(/\/$/, '')}${ingestRoutes.prometheusWrite.path}`,
    '    authorization:',
    `      credentials: ${dsnToken(project.http.dsn)}`,
  ].join('\n');
}

/** In-app metrics: the SDK's OTLP exporter reads these variables. */
export function appMetricsEnvSnippet(project: ProjectResponse): string {
  return [
    `export OTEL_EXPORTER_OTLP_ENDPOINT=${project.http.endpoint}`,
    `export OTEL_EXPORTER_OTLP_HEADERS=lantern-dsn=${project.http.dsn}`,
    'export OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf',
    'export OTEL_METRICS_EXPORTER=otlp',
    'export OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE=delta',
    'export OTEL_SERVICE_NAME=my-service',
  ].join('\n');
}
