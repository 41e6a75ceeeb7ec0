import { ingestRoutes, type ProjectResponse } from '@lantern/shared';

/**
 * Copy-paste configuration for sending data to a project, built from the DSNs the server reports.
 * Pure so the exact text can be pinned by tests.
 */

/** OTLP exporters of every OpenTelemetry SDK read these variables (OTLP exporter spec). */
export function sdkEnvSnippet(project: ProjectResponse, transport: 'http' | 'grpc'): string {
  const target = project[transport];
  return [
    `export OTEL_EXPORTER_OTLP_ENDPOINT=${target.endpoint}`,
    `export OTEL_EXPORTER_OTLP_HEADERS=lantern-dsn=${target.dsn}`,
    `export OTEL_EXPORTER_OTLP_PROTOCOL=${transport === 'grpc' ? 'grpc' : 'http/protobuf'}`,
    'export OTEL_SERVICE_NAME=my-service',
  ].join('\n');
}

/**
 * Node.js: environment variables alone start nothing; the SDK with the automatic instrumentations
 * must be loaded before the app (it reads the variables above). ES modules also need the
 * instrumentation's module hook, or imported libraries are not traced. By default the SDK asks
 * every cloud's metadata service for resource attributes; off a cloud, each failed lookup is an
 * error span and log in the newcomer's first data.
 */
export function nodeStartSnippet(): string {
  return [
    'npm install @opentelemetry/api @opentelemetry/auto-instrumentations-node',
    '# Off a cloud: skip the cloud detectors (their failed metadata lookups show up as errors)',
    'export OTEL_NODE_RESOURCE_DETECTORS=env,host,os,serviceinstance',
    '# CommonJS',
    'node --require @opentelemetry/auto-instrumentations-node/register app.js',
    '# ES modules',
    'node --experimental-loader=@opentelemetry/instrumentation/hook.mjs \\',
    '  --import @opentelemetry/auto-instrumentations-node/register app.mjs',
  ].join('\n');
}

/** gRPC exporters take host:port, without a scheme. */
function hostPort(endpoint: string): string {
  return endpoint.replace(/^[a-z]+:\/\//, '');
}

/** An OpenTelemetry Collector forwarding traces, metrics and logs (batch 10000 / 10 s, spec tracing §2). */
export function collectorSnippet(project: ProjectResponse, transport: 'http' | 'grpc'): string {
  const exporter =
    transport === 'grpc'
      ? [
          '  otlp/lantern:',
          `    endpoint: ${hostPort(project.grpc.endpoint)}`,
          '    tls:',
          `      insecure: ${project.grpc.endpoint.startsWith('https') ? 'false' : 'true'}`,
          '    headers:',
          `      lantern-dsn: '${project.grpc.dsn}'`,
        ]
      : [
          '  otlphttp/lantern:',
          `    endpoint: ${project.http.endpoint}`,
          '    headers:',
          `      lantern-dsn: '${project.http.dsn}'`,
        ];
  const name = transport === 'grpc' ? 'otlp/lantern' : 'otlphttp/lantern';
  const pipeline = (signal: string) => [
    `    ${signal}:`,
    '      receivers: [otlp]',
    '      processors: [batch]',
    `      exporters: [${name}]`,
  ];
  return [
    'receivers:',
    '  otlp:',
    '    protocols:',
    '      grpc:',
    '      http:',
    'processors:',
    '  batch:',
    '    send_batch_size: 10000',
    '    timeout: 10s',
    'exporters:',
    ...exporter,
    'service:',
    '  pipelines:',
    ...pipeline('traces'),
    ...pipeline('metrics'),
    ...pipeline('logs'),
  ].join('\n');
}

/** Vector (0.23.0 or newer) shipping logs as newline-delimited gzip JSON to the project's logs endpoint. */
export function vectorSnippet(project: ProjectResponse): string {
  return [
    '[sinks.lantern]',
    'type = "http"',
    'method = "post"',
    'inputs = ["my_logs"]',
    'encoding.codec = "json"',
    'framing.method = "newline_delimited"',
    'compression = "gzip"',
    `uri = "${project.http.endpoint}${ingestRoutes.vectorLogs.path}"`,
    `request.headers.lantern-dsn = "${project.http.dsn}"`,
  ].join('\n');
}

/** The trace id of the Zipkin example span: the help tells the reader to paste it into the search box. */
export const ZIPKIN_EXAMPLE_TRACE_ID = '5af7183fb1d4cf5f5af7183fb1d4cf5f';

/**
 * Zipkin JSON v2 spans posted to the project's HTTP endpoint, with one example span to post as it
 * is: no timestamp, so it is stored at its arrival and shows in the last hour.
 */
export function zipkinSnippet(project: ProjectResponse): string {
  return [
    `curl -X POST '${project.http.endpoint}${ingestRoutes.zipkinSpans.path}' \\`,
    `  -H 'content-type: application/json' \\`,
    `  -H 'lantern-dsn: ${project.http.dsn}' \\`,
    `  -d '[{"traceId": "${ZIPKIN_EXAMPLE_TRACE_ID}", "id": "6b221d5bc9e6496c",`,
    `        "name": "get /cart", "kind": "SERVER", "duration": 25000,`,
    `        "localEndpoint": {"serviceName": "cart"},`,
    `        "tags": {"http.method": "GET", "http.route": "/cart", "http.status_code": "200"}}]'`,
  ].join('\n');
}

/** For Zipkin reporters that cannot send a header: the ingest also reads the DSN from a `dsn` query parameter. */
export function zipkinUrlWithDsn(project: ProjectResponse): string {
  return `${project.http.endpoint}${ingestRoutes.zipkinSpans.path}?dsn=${project.http.dsn}`;
}
