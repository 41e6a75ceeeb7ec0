import type { ProjectResponse } from '@lantern/shared';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { appMetricsEnvSnippet, dsnToken, infraCollectorSnippet, prometheusRemoteWriteSnippet } from './metricsSnippets';

const project = {
  id: 1,
  name: 'Shop',
  http: { endpoint: 'http://lantern.example:14318', dsn: 'http://s3cr%40t@lantern.example:14318/1' },
  grpc: { endpoint: 'http://lantern.example:14317', dsn: 'http://s3cr%40t@lantern.example:14317/1' },
} as unknown as ProjectResponse;

describe('metrics help snippets', () => {
  it('gives a Collector config that is valid YAML with hostmetrics and prometheus in the metrics pipeline', () => {
    const cfg = parse(infraCollectorSnippet(project));
    expect(cfg.service.pipelines.metrics.receivers).toEqual(['hostmetrics', 'prometheus']);
    expect(cfg.exporters['otlp/lantern']).toEqual({
      endpoint: 'lantern.example:14317',
      tls: { insecure: true },
      headers: { 'lantern-dsn': project.grpc.dsn },
    });
    expect(Object.keys(cfg.receivers.hostmetrics.scrapers)).toContain('cpu');
  });

  it('points Prometheus remote write at the receiver with the token as bearer credentials', () => {
    expect(dsnToken(project.http.dsn)).toBe('s3cr@t');
    expect(parse(prometheusRemoteWriteSnippet(project))).toEqual({
      remote_write: [
        { url: 'http://lantern.example:14318/api/v1/prometheus/write', authorization: { credentials: 's3cr@t' } },
      ],
    });
  });

  it('sets the OTLP exporter variables for in-app metrics', () => {
    expect(appMetricsEnvSnippet(project)).toContain(`OTEL_EXPORTER_OTLP_HEADERS=lantern-dsn=${project.http.dsn}`);
  });
});
