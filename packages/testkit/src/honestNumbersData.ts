import { SeverityNumber } from '@opentelemetry/api-logs';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { createTestLogger, createTestTracer } from './otlpClients';

/**
 * The data of the issue 20 (items 3 and 5) tests, over real OTLP/HTTP:
 *   sparse   `GET /sparse` (http:sparse): 100, 200, 300 ms in the minute `sparse[0]`, 400, 500 ms
 *            in the minute `sparse[1]`, each starting `ms` into its minute.
 *   pay      `POST /pay` (service pay, http:pay) at `pay`, 80 ms, status error, with a `log` event
 *            of severity info 10 ms in.
 *   logs     3 ERROR (`payment failed`) and 2 INFO (`payment done`) log records of service pay at
 *            `logs`, without a span.
 */
export interface HonestNumbersTimes {
  sparse: [Date, Date];
  pay: Date;
  logs: Date;
}

export const SPARSE_DURATIONS_MS: [bucket: 0 | 1, ms: number][] = [
  [0, 100],
  [0, 200],
  [0, 300],
  [1, 400],
  [1, 500],
];

const plus = (d: Date, ms: number) => new Date(d.getTime() + ms);

export async function sendHonestNumbersData(
  opts: { httpUrl: string; grpcUrl: string; dsn: string },
  t: HonestNumbersTimes,
): Promise<void> {
  const sparse = createTestTracer('http-proto', { ...opts, serviceName: 'sparse' });
  for (const [bucket, ms] of SPARSE_DURATIONS_MS) {
    const s = sparse.tracer.startSpan('GET /sparse', {
      kind: SpanKind.SERVER,
      startTime: plus(t.sparse[bucket], ms),
      attributes: { 'http.request.method': 'GET', 'http.route': '/sparse' },
    });
    s.end(plus(t.sparse[bucket], 2 * ms));
  }
  await sparse.shutdown();
  const pay = createTestTracer('http-proto', { ...opts, serviceName: 'pay' });
  const s = pay.tracer.startSpan('POST /pay', {
    kind: SpanKind.SERVER,
    startTime: t.pay,
    attributes: { 'http.request.method': 'POST', 'http.route': '/pay' },
  });
  s.addEvent('log', { 'log.severity': 'info', 'log.message': 'charging card' }, plus(t.pay, 10));
  s.setStatus({ code: SpanStatusCode.ERROR, message: 'declined' });
  s.end(plus(t.pay, 80));
  await pay.shutdown();
  const logger = createTestLogger('http-proto', { ...opts, serviceName: 'pay' });
  for (let i = 0; i < 5; i++) {
    const error = i < 3;
    logger.logger.emit({
      timestamp: plus(t.logs, i),
      severityNumber: error ? SeverityNumber.ERROR : SeverityNumber.INFO,
      severityText: error ? 'ERROR' : 'INFO',
      body: error ? 'payment failed' : 'payment done',
    });
  }
  await logger.shutdown();
}
