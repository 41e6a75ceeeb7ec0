import { bigDemoTrace, demoTraces } from '../../server/src/demo/demoTraces';

/**
 * Telemetry for the tracing screen tests: the built-in demo shop traces and one 10,000-span trace,
 * sent as OTLP/JSON through the real /v1/traces endpoint with the project's DSN.
 */
type OtlpSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string; status?: { code: number } };

export function spansOf(body: { resourceSpans: unknown[] }): OtlpSpan[] {
  return body.resourceSpans.flatMap((rs) =>
    (rs as { scopeSpans: { spans: OtlpSpan[] }[] }).scopeSpans.flatMap((ss) => ss.spans),
  );
}

export async function sendOtlp(baseUrl: string, dsn: string, body: unknown): Promise<void> {
  const res = await fetch(`${baseUrl}/v1/traces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'lantern-dsn': dsn },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
}

/** OTLP/JSON log records of one service through the real /v1/logs endpoint; stored when this resolves. */
export async function sendOtlpLogs(
  baseUrl: string,
  dsn: string,
  service: string,
  logRecords: unknown[],
): Promise<void> {
  const res = await fetch(`${baseUrl}/v1/logs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'lantern-dsn': dsn },
    body: JSON.stringify({
      resourceLogs: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
          scopeLogs: [{ logRecords }],
        },
      ],
    }),
  });
  if (res.status !== 200) throw new Error(`logs ingest answered ${res.status}: ${await res.text()}`);
}

export interface TracingData {
  shop: { resourceSpans: unknown[] };
  failedCheckoutTraceId: string;
  big: { traceId: string; spans: number };
}

export async function sendTracingData(baseUrl: string, dsn: string, now = Date.now()): Promise<TracingData> {
  const shop = demoTraces({ now, traces: 120, seed: 42 });
  await sendOtlp(baseUrl, dsn, shop);
  const failed = spansOf(shop).find((s) => !s.parentSpanId && s.name === 'POST /api/checkout' && s.status?.code === 2);
  if (!failed) throw new Error('the demo data has no failed checkout');
  const big = bigDemoTrace(now, 10_000);
  await sendOtlp(baseUrl, dsn, big.body);
  return { shop, failedCheckoutTraceId: failed.traceId, big: { traceId: big.traceId, spans: 10_000 } };
}
