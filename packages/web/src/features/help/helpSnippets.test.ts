import type { ProjectResponse } from '@lantern/shared';
import { describe, expect, it } from 'vitest';
import {
  collectorSnippet,
  nodeStartSnippet,
  sdkEnvSnippet,
  vectorSnippet,
  ZIPKIN_EXAMPLE_TRACE_ID,
  zipkinSnippet,
  zipkinUrlWithDsn,
} from './helpSnippets';

const project: ProjectResponse = {
  project: { id: 1, name: 'Demo', pinnedAttrs: [], groupByEnv: false, groupFuncsByService: false },
  http: { endpoint: 'http://localhost:14318', dsn: 'http://tok@localhost:14318/1' },
  grpc: { endpoint: 'http://localhost:14317', dsn: 'http://tok@localhost:14317/1' },
};

describe('sdkEnvSnippet', () => {
  it('points the SDK at the HTTP endpoint with the DSN header', () => {
    expect(sdkEnvSnippet(project, 'http')).toBe(
      [
        'export OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:14318',
        'export OTEL_EXPORTER_OTLP_HEADERS=lantern-dsn=http://tok@localhost:14318/1',
        'export OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf',
        'export OTEL_SERVICE_NAME=my-service',
      ].join('\n'),
    );
  });

  it('uses the gRPC endpoint and protocol for gRPC', () => {
    const text = sdkEnvSnippet(project, 'grpc');
    expect(text).toContain('OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:14317');
    expect(text).toContain('OTEL_EXPORTER_OTLP_PROTOCOL=grpc');
  });
});

describe('collectorSnippet', () => {
  it('gives the gRPC exporter host:port and an insecure channel for http', () => {
    const yaml = collectorSnippet(project, 'grpc');
    expect(yaml).toContain('    endpoint: localhost:14317\n    tls:\n      insecure: true');
    expect(yaml).toContain("lantern-dsn: 'http://tok@localhost:14317/1'");
    expect(yaml).toContain('exporters: [otlp/lantern]');
  });

  it('adds the exporter to every pipeline (unused exporters are silently ignored)', () => {
    const yaml = collectorSnippet(project, 'http');
    expect(yaml.match(/exporters: \[otlphttp\/lantern\]/g)).toHaveLength(3);
    expect(yaml).toContain('send_batch_size: 10000');
  });
});

describe('vector and zipkin snippets', () => {
  it('carry the endpoint and the DSN header', () => {
    expect(vectorSnippet(project)).toContain(`uri = "${project.http.endpoint}/api/v1/vector/logs"`);
    expect(vectorSnippet(project)).toContain(`request.headers.lantern-dsn = "${project.http.dsn}"`);
    expect(zipkinSnippet(project)).toContain(`-H 'lantern-dsn: ${project.http.dsn}'`);
  });
});

describe('nodeStartSnippet', () => {
  it('loads the SDK before the app, with the module hook for ES modules', () => {
    const lines = nodeStartSnippet().split('\n');
    expect(lines).toContain('node --require @opentelemetry/auto-instrumentations-node/register app.js');
    expect(lines).toContain('export OTEL_NODE_RESOURCE_DETECTORS=env,host,os,serviceinstance');
    expect(lines.slice(-2)).toEqual([
      'node --experimental-loader=@opentelemetry/instrumentation/hook.mjs \\',
      '  --import @opentelemetry/auto-instrumentations-node/register app.mjs',
    ]);
  });
});

describe('zipkinSnippet', () => {
  it('posts an example span whose JSON parses, with the trace id the help names', () => {
    const text = zipkinSnippet(project);
    const body = /-d '([^']*)'$/.exec(text)?.[1] ?? '';
    const spans = JSON.parse(body) as { traceId: string; timestamp?: number }[];
    expect(spans).toHaveLength(1);
    expect(spans[0]?.traceId).toBe(ZIPKIN_EXAMPLE_TRACE_ID);
    // No timestamp: stored at its arrival, so it shows in the default (last hour) range.
    expect(spans[0]?.timestamp).toBeUndefined();
    expect(zipkinUrlWithDsn(project)).toBe(`http://localhost:14318/api/v2/spans?dsn=${project.http.dsn}`);
  });
});
