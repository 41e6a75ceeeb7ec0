import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { createTestTracer } from './otlpClients';

/**
 * Spans for "What changed" (issue 38), sent with the real OpenTelemetry SDK over OTLP/HTTP: 200
 * server spans `GET /cart` of service `shop`, one trace each, one every 250 ms from `baseMs`.
 *
 * - slow: every 5th span (40) lasts 800 ms, the others 20 ms;
 * - `feature.flag`: `new-cart` on 36 of the 40 slow spans (90 %) and 8 of the 160 fast ones (5 %),
 *   else `old-cart`: the attribute that explains the slow spans;
 * - `payload.bytes`: 20,000 + i on the slow spans, 100 + i on the fast ones (a numeric attribute that
 *   differs by distribution);
 * - `region`: eu, us, ap, sa in turn (25 % each on both sides: uniform);
 * - `request.id`: unique per span;
 * - errors: the fast spans with i % 10 = 1 (20), all with `payment.provider = acme` (8 of the 180
 *   others have it).
 */
export const WHAT_CHANGED = {
  spans: 200,
  slow: 40,
  slowMs: 800,
  fastMs: 20,
  errors: 20,
  stepMs: 250,
};

const isSlow = (i: number) => i % 5 === 0;
const isError = (i: number) => i % 10 === 1;

export async function sendWhatChangedSpans(ep: { httpUrl: string; dsn: string }, baseMs: number): Promise<void> {
  const t = createTestTracer('http-proto', { httpUrl: ep.httpUrl, grpcUrl: '', dsn: ep.dsn, serviceName: 'shop' });
  let slowSeen = 0;
  let fastSeen = 0;
  for (let i = 0; i < WHAT_CHANGED.spans; i++) {
    const slow = isSlow(i);
    // 36 of 40 slow spans and 8 of 160 fast ones carry the new cart.
    const newCart = slow ? slowSeen++ % 10 !== 9 : fastSeen++ % 20 === 0;
    const start = baseMs + i * WHAT_CHANGED.stepMs;
    const s = t.tracer.startSpan('GET /cart', {
      kind: SpanKind.SERVER,
      startTime: new Date(start),
      attributes: {
        'http.request.method': 'GET',
        'http.route': '/cart',
        'feature.flag': newCart ? 'new-cart' : 'old-cart',
        'payload.bytes': slow ? 20_000 + i : 100 + i,
        region: ['eu', 'us', 'ap', 'sa'][i % 4],
        'request.id': `req-${i}-${(i * 7919) % 100_003}`,
        'payment.provider': isError(i) || (!slow && i % 25 === 2) ? 'acme' : 'other',
      },
    });
    if (isError(i)) s.setStatus({ code: SpanStatusCode.ERROR, message: 'declined' });
    s.end(new Date(start + (slow ? WHAT_CHANGED.slowMs : WHAT_CHANGED.fastMs)));
  }
  await t.shutdown();
  if (!t.results.length || !t.results.every((r) => r.code === ExportResultCode.SUCCESS))
    throw new Error('export of the what-changed spans failed');
}
