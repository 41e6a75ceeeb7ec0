import { describe, expect, it } from 'vitest';
import { exporterName, familyName, promNamesOf, unescapeLabelName } from './promNames';

describe('PromQL names of stored metrics', () => {
  it('keeps a valid Prometheus name as it is (remote write)', () => {
    expect(promNamesOf({ name: 'http_requests_total', instrument: 'counter', unit: '', description: '' })).toEqual([
      { name: 'http_requests_total', metric: 'http_requests_total', column: 'sum', kind: 'counter' },
    ]);
    expect(
      promNamesOf({ name: 'x_bucket', instrument: 'counter', unit: '', description: '' }).map((n) => n.name),
    ).toEqual(['x_bucket']);
  });

  it('answers an OTLP metric under its UTF-8 name and the Collector exporter name', () => {
    const names = (name: string, instrument: string, unit: string) =>
      promNamesOf({ name, instrument, unit, description: '' }).map((n) => `${n.name}:${n.column}:${n.kind}`);
    expect(names('http.server.requests', 'counter', '')).toEqual([
      'http.server.requests:sum:counter',
      'http_server_requests_total:sum:counter',
    ]);
    expect(names('process.memory.usage', 'additive', 'bytes')).toEqual([
      'process.memory.usage:gauge:gauge',
      'process_memory_usage_bytes:gauge:gauge',
    ]);
    expect(names('http.server.duration', 'histogram', 'milliseconds')).toEqual([
      'http.server.duration_bucket:bucket:counter',
      'http.server.duration_sum:sum:counter',
      'http.server.duration_count:count:counter',
      'http_server_duration_milliseconds_bucket:bucket:counter',
      'http_server_duration_milliseconds_sum:sum:counter',
      'http_server_duration_milliseconds_count:count:counter',
    ]);
    expect(names('system.cpu.time', 'summary', 'seconds')).toEqual([]);
  });

  it('builds exporter names as the Collector does', () => {
    expect(exporterName('system.network.io', 'bytes', 'counter')).toBe('system_network_io_bytes_total');
    expect(exporterName('db.client.connections.usage', '{connection}', 'gauge')).toBe('db_client_connections_usage');
    expect(exporterName('requests_total', '', 'counter')).toBe('requests_total');
    expect(exporterName('queue.time', 'seconds', 'gauge')).toBe('queue_time_seconds');
    expect(exporterName('1st.metric', '', 'gauge')).toBe('_1st_metric');
    expect(
      familyName({ name: 'http.server.duration', instrument: 'histogram', unit: 'milliseconds', description: '' }),
    ).toBe('http_server_duration_milliseconds');
  });

  it("reads Prometheus's U__ escaping of UTF-8 names in a path", () => {
    expect(unescapeLabelName('U__http_2e_server_2e_duration')).toBe('http.server.duration');
    expect(unescapeLabelName('U__a__b')).toBe('a_b');
    expect(unescapeLabelName('job')).toBe('job');
    expect(unescapeLabelName('U__bad_zz_')).toBe('U__bad_zz_');
  });
});
