import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT1_TOKEN, removeDataDir, signIn, startLantern, type RunningLantern } from '@lantern/testkit/harness';
import { expectOverloadHandled } from '@lantern/testkit/hardening/expectOverload';
import { runOverload } from '@lantern/testkit/hardening/overload';

/**
 * Backpressure: a full queue refuses at once with 429 + Retry-After instead of buffering without
 * bound; a refused request stores nothing; what was accepted is committed. Then the short form of
 * the overload check (long form: `bench/ingest-hardening`): 3x the measured sustainable rate.
 */
describe('a full queue', () => {
  let lantern: RunningLantern;
  beforeAll(async () => {
    // Ten queued rows at most, and a long flush interval so the queue stays full while we look
    // (a partial batch waits for the interval since the previous write started). Requests are
    // prepared on the event loop here (workers 0); the other ingest tests use the worker pool.
    lantern = await startLantern({
      env: {
        LANTERN_INGEST_WORKERS: '0',
        LANTERN_INGEST_QUEUE_ROWS: '10',
        LANTERN_INGEST_BATCH_ROWS: '1000',
        LANTERN_INGEST_FLUSH_INTERVAL_MS: '1500',
      },
    });
  });
  afterAll(async () => {
    await lantern?.stop();
    if (lantern) removeDataDir(lantern.dataDir);
  });

  // Each request encodes to more than STAGE_FILE_MIN_BYTES, so its rows wait in staged files.
  const payload = 'x'.repeat(20_000);
  function body(traceId: string, spans: number): string {
    const now = BigInt(Date.now()) * 1_000_000n;
    return JSON.stringify({
      resourceSpans: [
        {
          resource: { attributes: [] },
          scopeSpans: [
            {
              spans: Array.from({ length: spans }, (_, i) => ({
                traceId,
                spanId: (i + 1).toString(16).padStart(16, '0'),
                name: 'work',
                kind: 1,
                attributes: [{ key: 'payload', value: { stringValue: payload } }],
                startTimeUnixNano: String(now),
                endTimeUnixNano: String(now + 1000n),
              })),
            },
          ],
        },
      ],
    });
  }

  it('answers 429 with Retry-After and stores only what it accepted', async () => {
    const send = (traceId: string) =>
      fetch(`${lantern.baseUrl}/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${PROJECT1_TOKEN}` },
        body: body(traceId, 8),
      });
    // An idle server writes at once; right after that write, the next partial batch has to wait.
    expect((await send('e0'.repeat(16))).status).toBe(200);
    const first = send('e1'.repeat(16));
    await new Promise((r) => setTimeout(r, 200));
    const second = await send('e2'.repeat(16));
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await second.json()).toMatchObject({ code: 'queue_full' });
    // The refused request's staged rows are gone; the waiting one's are still there.
    const staged = () => readdirSync(join(lantern.dataDir, 'ch', 'ingest-staging'));
    expect(staged()).toHaveLength(2);
    expect((await first).status).toBe(200);
    expect(staged()).toEqual([]);

    const cookie = await signIn(lantern.baseUrl);
    const get = (id: string) => fetch(`${lantern.baseUrl}/api/v1/tracing/1/traces/${id}`, { headers: { cookie } });
    expect((await get('e1'.repeat(16))).status).toBe(200);
    expect((await get('e2'.repeat(16))).status).toBe(404);
    // Once drained, the queue takes requests again.
    expect((await send('e3'.repeat(16))).status).toBe(200);
  });
});

describe('overload at 3x the sustainable rate', () => {
  let dataDir = '';
  afterAll(() => {
    if (dataDir) removeDataDir(dataDir);
  });

  it('keeps answering, bounds memory and stores every acknowledged row', async () => {
    // A small queue so the short run reaches the limit: what matters is the behaviour at it.
    const result = await runOverload({
      seconds: 15,
      calibrateSeconds: 5,
      calibrateClients: 32,
      multiplier: 3,
      rowsPerRequest: 200,
      maxInFlight: 256,
      kinds: ['traces-proto', 'logs-proto'],
      env: { LANTERN_INGEST_QUEUE_ROWS: '20000' },
    });
    dataDir = result.dataDir;
    console.log(JSON.stringify({ ...result, lost: result.lost.length }));
    expectOverloadHandled(result);
  }, 90_000);
});
