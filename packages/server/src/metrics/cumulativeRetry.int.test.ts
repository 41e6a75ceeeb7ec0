import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GaugeResponse } from '@lantern/shared';
import { PROJECT1_TOKEN, removeDataDir, signIn, startLantern, type RunningLantern } from '@lantern/testkit/harness';
import { clearOfMinuteEnd } from '@lantern/testkit/otlpMetrics';

/**
 * A request refused at the commit (429: the datapoint queue is full) must leave the
 * cumulative -> delta state as it was, so that the client's retry of the same body counts in
 * full: a cumulative counter 10 -> 20 -> 30 adds up to 20 and a delta up-down counter's level is
 * not raised twice, whether or not the middle request was refused once.
 */
let lantern: RunningLantern;
beforeAll(async () => {
  // Ten queued datapoints at most (ten times `queue_rows`, metricsPipeline.ts) and a long flush
  // interval, so a queued request keeps the queue full while the next one is refused.
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

const ns = (ms: number) => String(BigInt(ms) * 1_000_000n);
// Started before the server: the counter's first point is only its baseline.
const START = ns(Date.now() - 3600_000);

/** A cumulative counter point and a delta up-down counter change, plus `filler` gauge points. */
function body(prefix: string, counter: number | null, change: number | null, filler: number): string {
  const time = ns(Date.now());
  const metrics: unknown[] = [];
  if (counter !== null)
    metrics.push({
      name: `${prefix}.requests`,
      sum: {
        aggregationTemporality: 2,
        isMonotonic: true,
        dataPoints: [{ startTimeUnixNano: START, timeUnixNano: time, asDouble: counter }],
      },
    });
  if (change !== null)
    metrics.push({
      name: `${prefix}.queue`,
      sum: {
        aggregationTemporality: 1,
        isMonotonic: false,
        dataPoints: [{ startTimeUnixNano: time, timeUnixNano: time, asDouble: change }],
      },
    });
  if (filler > 0)
    metrics.push({
      name: `${prefix}.filler`,
      gauge: {
        dataPoints: Array.from({ length: filler }, (_, i) => ({
          timeUnixNano: time,
          asDouble: 1,
          attributes: [{ key: 'i', value: { intValue: i } }],
        })),
      },
    });
  return JSON.stringify({ resourceMetrics: [{ scopeMetrics: [{ metrics }] }] });
}

const send = (b: string) =>
  fetch(`${lantern.baseUrl}/v1/metrics`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${PROJECT1_TOKEN}` },
    body: b,
  });

async function values(prefix: string): Promise<Record<string, number | null>> {
  const cookie = await signIn(lantern.baseUrl);
  const minute = Math.floor(Date.now() / 60_000) * 60_000;
  const range = `time_gte=${new Date(minute - 600_000).toISOString()}&time_lt=${new Date(minute + 120_000).toISOString()}`;
  const metrics = `metric=${prefix}.requests&alias=c&metric=${prefix}.queue&alias=u`;
  const res = await fetch(
    `${lantern.baseUrl}/api/v1/metrics/1/gauge?${range}&${metrics}&query=${encodeURIComponent('sum($c) as c | $u')}`,
    { headers: { cookie } },
  );
  return GaugeResponse.parse(await res.json()).values as Record<string, number | null>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a retry after a refused commit', () => {
  for (const refused of [false, true]) {
    it(`counts a cumulative counter and a delta up-down counter once (middle request ${refused ? 'refused once, then retried' : 'accepted'})`, async () => {
      const prefix = refused ? 'retry.refused' : 'retry.accepted';
      // Its requests are summed together: all in one minute.
      await clearOfMinuteEnd(20_000);
      // t1: the counter's baseline (10) and the level 5.
      expect((await send(body(prefix, 10, 5, 0))).status).toBe(200);
      await sleep(10);
      const middle = body(prefix, 20, 3, 8);
      if (refused) {
        // An idle server writes at once; right after that write, the next partial batch has to
        // wait for the flush interval and fills the queue, so the middle request is refused at
        // the commit (after its cumulative steps have run).
        expect((await send(body(`${prefix}.warm`, null, null, 8))).status).toBe(200);
        const queued = send(body(`${prefix}.queued`, null, null, 8));
        await sleep(200);
        const res = await send(middle);
        expect(res.status).toBe(429);
        expect(await res.json()).toMatchObject({ code: 'queue_full' });
        expect((await queued).status).toBe(200);
      }
      // The client's retry of the same body (or the only attempt).
      expect((await send(middle)).status).toBe(200);
      await sleep(10);
      // t3: the counter at 30; the level unchanged.
      expect((await send(body(prefix, 30, null, 0))).status).toBe(200);
      expect(await values(prefix)).toMatchObject({ c: 20, u: 8 });
    });
  }
});
