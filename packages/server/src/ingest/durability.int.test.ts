import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT1_TOKEN, removeDataDir, signIn, startLantern, type RunningLantern } from '../../../../e2e/harness';

/**
 * The durability contract: every span answered with success survives SIGKILL. Several clients
 * send concurrently; the server is killed while requests are in flight; after a restart every
 * acknowledged trace must be there.
 */
let lantern: RunningLantern | undefined;
let dataDir = '';
afterAll(async () => {
  await lantern?.stop();
  if (dataDir) removeDataDir(dataDir);
});

function traceBody(traceId: string, spans: number): string {
  const now = BigInt(Date.now()) * 1_000_000n;
  return JSON.stringify({
    resourceSpans: [{
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'durability' } }] },
      scopeSpans: [{ spans: Array.from({ length: spans }, (_, i) => ({
        traceId,
        spanId: (i + 1).toString(16).padStart(16, '0'),
        ...(i > 0 ? { parentSpanId: '0000000000000001' } : {}),
        name: i === 0 ? 'job' : `step ${i}`,
        kind: 1,
        startTimeUnixNano: String(now + BigInt(i)),
        endTimeUnixNano: String(now + BigInt(i) + 1000n),
      })) }],
    }],
  });
}

describe('durability', () => {
  it('keeps every acknowledged span across SIGKILL', async () => {
    lantern = await startLantern({ env: { LANTERN_INGEST_FLUSH_INTERVAL_MS: '50' } });
    dataDir = lantern.dataDir;
    const { httpPort, grpcPort, baseUrl } = lantern;
    const acked: string[] = [];
    let stop = false;
    const client = async (c: number) => {
      for (let i = 0; !stop; i++) {
        const traceId = `${c.toString(16).padStart(4, '0')}${i.toString(16).padStart(28, '0')}`;
        try {
          const res = await fetch(`${baseUrl}/v1/traces`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'lantern-dsn': `http://${PROJECT1_TOKEN}@localhost:${httpPort}/1` },
            body: traceBody(traceId, 5),
          });
          if (res.status === 200) acked.push(traceId);
        } catch {
          return; // the server is gone
        }
      }
    };
    const clients = [1, 2, 3, 4].map(client);
    // Kill once a good number of requests has been acknowledged (however slow the machine), with
    // more of them in flight.
    for (const deadline = Date.now() + 30_000; acked.length < 40 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
    await lantern.kill();
    stop = true;
    await Promise.all(clients);
    expect(acked.length).toBeGreaterThan(20);

    lantern = await startLantern({ dataDir, httpPort, grpcPort });
    const cookie = await signIn(lantern.baseUrl);
    const missing: string[] = [];
    for (const traceId of acked) {
      const res = await fetch(`${lantern.baseUrl}/api/v1/tracing/1/traces/${traceId}`, { headers: { cookie } });
      if (res.status !== 200) missing.push(traceId);
      else expect(((await res.json()) as { numSpan: number }).numSpan).toBe(5);
    }
    expect(missing).toEqual([]);
  });
});
