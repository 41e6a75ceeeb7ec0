import { gzipSync } from 'node:zlib';
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { ExportResultCode } from '@opentelemetry/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { TraceResponse } from '@lantern/shared';
import { useLantern } from '@lantern/testkit/useLantern';
import { createTestLogger, type Transport } from '@lantern/testkit/otlpClients';
import { readStoredRows, type StoredRow } from './storedRows';

/**
 * OTLP logs end to end: the official OpenTelemetry JS logs SDK and exporters (gRPC, HTTP/protobuf,
 * HTTP/JSON) against the real server; correlated logs are read back through the trace API while
 * it runs, and every stored row is read from chDB itself once it has stopped.
 */
const server = useLantern();
let stored: StoredRow[] = [];
const TRANSPORTS: Transport[] = ['http-proto', 'grpc', 'http-json'];

const hex = (n: number, len: number) => n.toString(16).padStart(len, '0');

async function sendLogs(transport: Transport, traceId: string): Promise<void> {
  const t = createTestLogger(transport, {
    httpUrl: server.lantern.baseUrl,
    grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
    dsn: server.dsn,
    serviceName: `logs-${transport}`,
  });
  const inSpan = trace.setSpanContext(context.active(), {
    traceId,
    spanId: 'aaaaaaaaaaaaaaa1',
    traceFlags: TraceFlags.SAMPLED,
  });
  t.logger.emit({
    context: inSpan,
    severityNumber: SeverityNumber.WARN,
    severityText: 'WARN',
    body: 'disk 91% full on /var',
    attributes: { 'disk.path': '/var' },
  });
  t.logger.emit({
    context: inSpan,
    severityNumber: SeverityNumber.ERROR,
    body: 'charge failed',
    attributes: { 'exception.type': 'CardError', 'exception.message': 'card 4242 declined' },
  });
  // Standalone (no trace): severity only as a number, JSON and logfmt messages.
  t.logger.emit({
    severityNumber: SeverityNumber.DEBUG,
    body: '{"msg":"cache miss","key":"user:42","latency":{"ms":3}}',
  });
  t.logger.emit({ body: 'level=error msg="upstream timeout" host=billing' });
  t.logger.emit({ severityText: 'info', body: 'user 42 logged in' });
  t.logger.emit({ severityText: 'info', body: 'user 977 logged in' });
  t.logger.emit({ severityText: 'info', body: { message: 'structured body', 'order.id': 7 } });
  await t.shutdown();
  expect(t.results.length).toBeGreaterThan(0);
  expect(t.results.map((r) => r.code)).toEqual(t.results.map(() => ExportResultCode.SUCCESS));
}

describe.each(TRANSPORTS)('OTLP logs over %s', (transport) => {
  it('stores log records as log rows, correlated ones inside their trace', async () => {
    const traceId = hex(TRANSPORTS.indexOf(transport) + 1, 32);
    await sendLogs(transport, traceId);
    const res = await fetch(`${server.lantern.baseUrl}/api/v1/tracing/1/traces/${traceId}`, {
      headers: { cookie: server.cookie },
    });
    expect(res.status).toBe(200);
    const tree = TraceResponse.parse(await res.json());
    // No span was sent: the logs hang off the placeholder root, as in the reference.
    const events = tree.root.events ?? [];
    expect(events.map((e) => e.system).sort()).toEqual(['log:error', 'log:error', 'log:warn']);
    const warn = events.find((e) => e.system === 'log:warn')!;
    expect(warn.name).toBe('WARN disk 91% full on /var');
    expect(warn.attrs).toMatchObject({
      'service.name': `logs-${transport}`,
      'disk.path': '/var',
      'log.severity': 'WARN',
    });
  });
});

describe('what is stored (read from chDB after the server stopped)', () => {
  beforeAll(async () => {
    // One raw OTLP/JSON request too, gzip-compressed, with one record whose span id is bad.
    const now = String(BigInt(Date.now()) * 1_000_000n);
    const res = await fetch(`${server.lantern.baseUrl}/v1/logs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'lantern-dsn': server.dsn },
      body: gzipSync(
        JSON.stringify({
          resourceLogs: [
            {
              resource: { attributes: [{ key: 'service.name', value: { stringValue: 'raw-json' } }] },
              scopeLogs: [
                {
                  logRecords: [
                    { timeUnixNano: now, severityText: 'Warning', body: { stringValue: 'raw json record' } },
                    { timeUnixNano: now, spanId: 'abc', body: { stringValue: 'bad span id' } },
                  ],
                },
              ],
            },
          ],
        }),
      ),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      partialSuccess: { rejectedLogRecords: '1', errorMessage: expect.stringMatching(/logRecords\[1\].*spanId/) },
    });
    await server.lantern.stop();
    stored = await readStoredRows(server.lantern.dataDir);
  });

  const byService = (s: string) => stored.filter((r) => r.service_name === s);

  it.each(TRANSPORTS)('normalises every record sent over %s', (transport) => {
    const rows = byService(`logs-${transport}`);
    const standalone = rows.filter((r) => r.standalone);
    expect(rows).toHaveLength(8); // 7 records + the exception row of the one carrying an exception
    const find = (m: string) => rows.find((r) => r.log_message === m);

    expect(find('cache miss')).toMatchObject({
      system: 'log:debug',
      log_severity: 'DEBUG',
      parent_id: '0',
      attrs: { key: 'user:42', 'latency.ms': '3' },
    });
    expect(find('level=error msg="upstream timeout" host=billing')).toMatchObject({
      system: 'log:error',
      attrs: { msg: 'upstream timeout', host: 'billing' },
    });
    expect(find('structured body')).toMatchObject({ system: 'log:info', attrs: { 'order.id': '7' } });
    expect(find('user 42 logged in')!.group_id).toBe(find('user 977 logged in')!.group_id);
    expect(find('user 42 logged in')!.group_id).not.toBe(find('structured body')!.group_id);
    expect(standalone).toHaveLength(5);
    expect(new Set(standalone.map((r) => r.trace_id)).size).toBe(5);

    const exc = rows.find((r) => r.event_name === 'exception')!;
    // spans_index holds the group's name (the message template); the row keeps its message.
    expect(exc).toMatchObject({
      system: 'log:error',
      exception_type: 'CardError',
      exception_message: 'card 4242 declined',
      display_name: 'CardError: card <num> declined',
    });
    expect(exc.trace_id).toBe(hex(TRANSPORTS.indexOf(transport) + 1, 32));
  });

  it('keeps the good records of a request and drops only the bad one', () => {
    expect(byService('raw-json').map((r) => [r.log_message, r.system])).toEqual([['raw json record', 'log:warn']]);
  });

  it('writes every row into project 1 only', () => {
    expect(new Set(stored.map((r) => r.project_id))).toEqual(new Set([1]));
  });
});
