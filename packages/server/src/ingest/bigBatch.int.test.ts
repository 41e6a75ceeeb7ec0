import { SpanKind } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { describe, expect, it } from 'vitest';
import { exporterFor } from '@lantern/testkit/otlpClients';
import { useLantern } from '@lantern/testkit/useLantern';
import { readStoredRows } from './storedRows';

/**
 * A Collector-sized batch (the help card's `send_batch_size: 10000`) whose spans carry events (logs
 * recorded as span events) is taken whole with the default ingest.max_rows_per_request: 10,000
 * spans with 10 events each are 110,000 rows (audit §4: it was refused whole with 413).
 */
const server = useLantern();

const SPANS = 10_000;
const EVENTS = 10;

describe('a 10,000-span batch with 10 events per span', () => {
  it('is accepted in one export and every span and event row is stored', { timeout: 120_000 }, async () => {
    const results: ExportResult[] = [];
    const batchSizes: number[] = [];
    const exporter = exporterFor('http-proto', {
      httpUrl: server.lantern.baseUrl,
      grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
      dsn: server.dsn,
      timeoutMillis: 60_000,
    });
    const provider = new NodeTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'big-batch-svc' }),
      spanProcessors: [
        new BatchSpanProcessor(
          {
            export: (spans: ReadableSpan[], done: (r: ExportResult) => void) => {
              batchSizes.push(spans.length);
              exporter.export(spans, (r) => {
                results.push(r);
                done(r);
              });
            },
            shutdown: () => exporter.shutdown(),
          },
          {
            maxExportBatchSize: SPANS,
            maxQueueSize: SPANS,
            scheduledDelayMillis: 60_000,
            exportTimeoutMillis: 60_000,
          },
        ),
      ],
    });
    const tracer = provider.getTracer('big-batch');
    for (let i = 0; i < SPANS; i++) {
      const span = tracer.startSpan(`GET /items/${i % 50}`, {
        kind: SpanKind.SERVER,
        attributes: { 'http.route': `/items/${i % 50}`, 'http.request.method': 'GET' },
      });
      for (let e = 0; e < EVENTS; e++)
        span.addEvent('log', { 'log.message': `step ${e} of request ${i}`, 'log.severity': 'INFO' });
      span.end();
    }
    await provider.shutdown();
    expect(batchSizes).toEqual([SPANS]);
    expect(results.map((r) => [r.code, r.error?.message])).toEqual([[ExportResultCode.SUCCESS, undefined]]);

    await server.lantern.stop();
    const stored = (await readStoredRows(server.lantern.dataDir)).filter((r) => r.service_name === 'big-batch-svc');
    expect(stored).toHaveLength(SPANS * (EVENTS + 1));
  });
});
