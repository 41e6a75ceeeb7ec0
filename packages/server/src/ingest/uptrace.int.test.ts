import { createRequire } from 'node:module';
import { trace } from '@opentelemetry/api';
import { configureOpentelemetry } from '@uptrace/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TraceResponse } from '@lantern/shared';
import { PROJECT1_TOKEN, removeDataDir, signIn, startLantern, type RunningLantern } from '@lantern/testkit/harness';
import { readStoredRows } from './storedRows';

/**
 * Compatibility: the Uptrace Node.js distribution (`@uptrace/node`, unmodified: its own OTLP/HTTP
 * exporters, gzip, the `uptrace-dsn` header) pointed at a Lantern DSN delivers traces and logs.
 * Only auto-instrumentation is switched off, so the test's own HTTP calls are not traced.
 *
 * Found here: @uptrace/node 2.0.2 sets its log processor in start(), after @opentelemetry/sdk-node
 * 0.203 has already read its options in the constructor, so its own log exporter is never used and
 * the SDK falls back to the standard OTEL_* environment (and `reportException` outside a span logs
 * to a no-op logger taken before any provider existed). Users of that version point the logs at
 * Lantern with OTEL_EXPORTER_OTLP_LOGS_ENDPOINT / _HEADERS, as done below; traces use the DSN.
 */
let lantern: RunningLantern;
beforeAll(async () => {
  lantern = await startLantern();
});
afterAll(async () => {
  await lantern?.stop();
  if (lantern) removeDataDir(lantern.dataDir);
});

// The logs API as @uptrace/node itself resolves it (its own version), so records reach its SDK.
const uptraceRequire = createRequire(createRequire(import.meta.url).resolve('@uptrace/node'));
const { logs, SeverityNumber } = uptraceRequire('@opentelemetry/api-logs') as typeof import('@opentelemetry/api-logs');

describe('@uptrace/node', () => {
  it('delivers traces and logs to Lantern unmodified', async () => {
    const dsn = `http://${PROJECT1_TOKEN}@127.0.0.1:${lantern.httpPort}/1`;
    process.env.OTEL_EXPORTER_OTLP_LOGS_ENDPOINT = `${lantern.baseUrl}/v1/logs`;
    process.env.OTEL_EXPORTER_OTLP_LOGS_HEADERS = `uptrace-dsn=${PROJECT1_TOKEN}`;
    const sdk = configureOpentelemetry({
      dsn,
      serviceName: 'uptrace-app',
      serviceVersion: '1.0.0',
      instrumentations: [],
    });
    sdk.start();
    const tracer = trace.getTracer('uptrace-test');
    const logger = logs.getLogger('uptrace-test');
    const traceId = tracer.startActiveSpan(
      'checkout',
      { attributes: { 'http.route': '/checkout', 'http.method': 'POST' } },
      (span) => {
        logger.emit({ severityNumber: SeverityNumber.INFO, severityText: 'INFO', body: 'order 1234 placed' });
        tracer.startActiveSpan('charge card', (child) => {
          sdk.reportException(new Error('payment gateway down'));
          child.end();
        });
        span.end();
        return span.spanContext().traceId;
      },
    );
    logger.emit({ severityNumber: SeverityNumber.ERROR, body: 'nightly export failed' });
    await sdk.shutdown();

    const cookie = await signIn(lantern.baseUrl);
    const res = await fetch(`${lantern.baseUrl}/api/v1/tracing/1/traces/${traceId}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const tree = TraceResponse.parse(await res.json());
    expect(tree.root).toMatchObject({ name: 'checkout', system: 'http:uptrace-app' });
    expect(tree.root.attrs).toMatchObject({ 'service.name': 'uptrace-app', 'telemetry.sdk.language': 'nodejs' });
    expect(tree.root.children?.map((c) => c.name)).toEqual(['charge card']);
    expect(tree.root.events?.map((e) => [e.name, e.system])).toEqual([['INFO order 1234 placed', 'log:info']]);

    await lantern.stop();
    const rows = (await readStoredRows(lantern.dataDir)).filter((r) => r.service_name === 'uptrace-app');
    const exception = rows.find((r) => r.event_name === 'exception');
    expect(exception).toMatchObject({
      system: 'log:error',
      exception_type: 'Error',
      exception_message: 'payment gateway down',
      trace_id: traceId,
    });
    expect(rows.find((r) => r.log_message === 'nightly export failed')).toMatchObject({
      system: 'log:error',
      standalone: true,
    });
  });
});
