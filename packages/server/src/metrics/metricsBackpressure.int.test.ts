import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GaugeResponse } from '@lantern/shared';
import { PROJECT1_TOKEN, removeDataDir, signIn, startLantern, type RunningLantern } from '@lantern/testkit/harness';
import { expectOverloadHandled } from '@lantern/testkit/hardening/expectOverload';
import { runOverload } from '@lantern/testkit/hardening/overload';

/**
 * Metrics keep the ingest contract: a full datapoint queue answers 429 with Retry-After at once,
 * a refused request stores nothing, and what was acknowledged is committed. Then the short form
 * of the overload check for metrics: 3x the measured sustainable rate of OTLP metrics requests.
 */
let lantern: RunningLantern;
beforeAll(async () => {
  // Ten queued datapoints at most (the datapoint queue holds ten times `queue_rows`, see
  // metricsPipeline.ts) and a long flush interval, so the queue stays full while we look.
  lantern = await startLantern({
    env: {
      LANTERN_INGEST_QUEUE_ROWS: '1',
      LANTERN_INGEST_BATCH_ROWS: '100',
      LANTERN_INGEST_FLUSH_INTERVAL_MS: '1500',
    },
  });
});
afterAll(async () => {
  await lantern?.stop();
  if (lantern) removeDataDir(lantern.dataDir);
});

function body(metric: string, points: number): string {
  const now = String(BigInt(Date.now()) * 1_000_000n);
  return JSON.stringify({
    resourceMetrics: [
      {
        scopeMetrics: [
          {
            metrics: [
              {
                name: metric,
                gauge: {
                  dataPoints: Array.from({ length: points }, (_, i) => ({
                    timeUnixNano: now,
                    asDouble: 1,
                    attributes: [{ key: 'i', value: { intValue: i } }],
                  })),
                },
              },
            ],
          },
        ],
      },
    ],
  });
}

describe('metrics backpressure', () => {
  it('answers 429 with Retry-After when the datapoint queue is full and stores only what it accepted', async () => {
    const send = (metric: string) =>
      fetch(`${lantern.baseUrl}/v1/metrics`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${PROJECT1_TOKEN}` },
        body: body(metric, 8),
      });
    // An idle server writes at once; right after that write, the next partial batch has to wait.
    expect((await send('bp.zero')).status).toBe(200);
    const first = send('bp.one');
    await new Promise((r) => setTimeout(r, 200));
    const second = await send('bp.two');
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await second.json()).toMatchObject({ code: 'queue_full' });
    expect((await first).status).toBe(200);

    const cookie = await signIn(lantern.baseUrl);
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const range = `time_gte=${new Date(minute - 600_000).toISOString()}&time_lt=${new Date(minute + 120_000).toISOString()}`;
    const count = async (metric: string) => {
      const res = await fetch(
        `${lantern.baseUrl}/api/v1/metrics/1/gauge?${range}&metric=${metric}&alias=m&query=${encodeURIComponent('uniq($m) as n')}`,
        { headers: { cookie } },
      );
      return GaugeResponse.parse(await res.json());
    };
    expect((await count('bp.one')).values.n).toBe(8);
    expect((await count('bp.two')).query.parts[0].error).toBe('metric "bp.two" not found');
  });
});

describe('metrics under 3x overload', () => {
  let dataDir = '';
  afterAll(() => {
    if (dataDir) removeDataDir(dataDir);
  });

  it('keeps answering, bounds memory and stores every acknowledged datapoint', async () => {
    // A small queue (20,000 datapoints) so the short run reaches the limit, and a fold that writes
    // its rows every 20,000 (each request's 500 datapoints are series of their own, which the fold
    // cannot fold, docs/decisions/metrics-ingest-fold.md): the engine sets the sustainable rate,
    // as without the fold, rather than a fold that takes a burst at once and then waits for a
    // flush of its full size.
    const result = await runOverload({
      seconds: 15,
      calibrateSeconds: 5,
      calibrateClients: 32,
      multiplier: 3,
      rowsPerRequest: 500,
      maxInFlight: 256,
      kinds: ['metrics-proto'],
      env: { LANTERN_INGEST_QUEUE_ROWS: '2000', LANTERN_METRICS_FOLD_MAX_ROWS: '1000' },
    });
    dataDir = result.dataDir;
    console.log(JSON.stringify({ ...result, lost: result.lost.length }));
    expect(result.ackedRequests).toBeGreaterThan(10);
    expectOverloadHandled(result);
  }, 90_000);
});
