import { SeverityNumber } from '@opentelemetry/api-logs';
import { describe, expect, it } from 'vitest';
import { signIn, startLantern } from '@lantern/testkit/harness';
import { createTestLogger } from '@lantern/testkit/otlpClients';
import { openTail, type OpenTail } from '@lantern/testkit/tail';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * The live tail (`GET /api/v1/tracing/:projectId/tail`, docs/decisions/live-tail.md) on a real
 * server: logs sent over OTLP while a tail is open arrive on it, filtered, in the order they were
 * stored, once each, also with timestamps 10 minutes old; a reconnect with Last-Event-ID resumes
 * with nothing missed or repeated, also across a restart on the same data; the limits, sign-out
 * and the session. Short poll, settle and heartbeat times (the same code as the defaults).
 */
const ENV = {
  LANTERN_INGEST_FLUSH_INTERVAL_MS: '50',
  LANTERN_TAIL_POLL_MS: '200',
  LANTERN_TAIL_SETTLE_MS: '500',
  LANTERN_TAIL_MAX_STREAMS_PER_USER: '4',
  LANTERN_TAIL_MAX_ROWS_PER_SECOND: '50',
  LANTERN_TAIL_HEARTBEAT_SECONDS: '1',
};
const server = useLantern({ env: ENV });

/** Sends one OTLP export of logs (acknowledged, so stored, when this resolves). */
async function sendLogs(run: string, seqs: number[], opts: { service?: string; ageMs?: number } = {}) {
  const sender = createTestLogger('http-proto', {
    httpUrl: server.lantern.baseUrl,
    grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
    dsn: server.dsn,
    serviceName: opts.service ?? 'tail-svc',
  });
  for (const seq of seqs)
    sender.logger.emit({
      severityNumber: SeverityNumber.INFO,
      severityText: 'INFO',
      body: `tail ${run} line ${seq}`,
      ...(opts.ageMs ? { timestamp: Date.now() - opts.ageMs } : {}),
      attributes: { 'tail.run': run, 'tail.seq': seq },
    });
  await sender.shutdown();
}

const tailOf = (run: string, lastEventId?: string) =>
  openTail(server.lantern.baseUrl, server.cookie, {
    system: ['log:all'],
    query: `where tail.run = "${run}"`,
    ...(lastEventId ? { lastEventId } : {}),
  });
const seqs = (t: OpenTail) => t.rows.map((r) => Number(r.span.attrs['tail.seq']));
/** A cursor's arrival (µs on the engine's clock): rows come in arrival order. */
const arrival = (id: string) => BigInt(id.split('-')[0]);

describe('live tail', () => {
  it('answers 401 without a session, 400 on a bad query or cursor, 404 on an unknown project', async () => {
    const base = server.lantern.baseUrl;
    const anon = await fetch(`${base}/api/v1/tracing/1/tail`);
    expect(anon.status).toBe(401);
    expect(await anon.json()).toMatchObject({ code: 'unauthenticated' });
    const badQuery = await openTail(base, server.cookie, { query: 'where service.name =' });
    expect(badQuery.status).toBe(400);
    expect(badQuery.error).toMatchObject({ code: 'invalid_query' });
    const badCursor = await openTail(base, server.cookie, { lastEventId: 'not-a-cursor' });
    expect(badCursor.status).toBe(400);
    expect(badCursor.error).toMatchObject({ code: 'invalid_cursor' });
    const noProject = await openTail(base, server.cookie, { projectId: 999 });
    expect(noProject.status).toBe(404);
  });

  it('sends the logs that match, in the order they were stored, once each, also with old timestamps', async () => {
    const tail = await tailOf('r1');
    expect(tail.status).toBe(200);
    await sendLogs('r1', [0, 1, 2]);
    await sendLogs('other', [0, 1, 2]);
    await sendLogs('r1', [3, 4], { ageMs: 10 * 60_000 });
    await sendLogs('r1', [5], { service: 'another-svc' });
    await tail.until(() => tail.rows.length >= 6, 'six r1 logs');
    const got = seqs(tail);
    expect([...got].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    // Exports were stored one after the other: each one's rows come after the previous one's.
    expect(got.slice(0, 3).sort()).toEqual([0, 1, 2]);
    expect(got.slice(3, 5).sort()).toEqual([3, 4]);
    expect(got[5]).toBe(5);
    for (let i = 1; i < tail.rows.length; i++)
      expect(arrival(tail.rows[i - 1].id) <= arrival(tail.rows[i].id)).toBe(true);
    expect(new Set(tail.rows.map((r) => r.id)).size).toBe(tail.rows.length);
    // The old ones are there with their own time.
    const old = tail.rows.find((r) => r.span.attrs['tail.seq'] === 3)!;
    expect(Date.now() - Date.parse(old.span.time)).toBeGreaterThan(9 * 60_000);
    // The span list's row shape, the search words' field included.
    expect(tail.rows[0].span).toMatchObject({ system: expect.stringMatching(/^log:/) as unknown, projectId: 1 });
    // Later polls repeat nothing: one more log is the only new row.
    await sendLogs('r1', [6]);
    await tail.until(() => tail.rows.length >= 7, 'the seventh log');
    await tail.until(() => tail.comments >= 2, 'heartbeats');
    expect(seqs(tail)).toEqual([...got, 6]);
    tail.close();
  });

  it('resumes after Last-Event-ID with nothing missed and nothing repeated', async () => {
    const first = await tailOf('r2');
    await sendLogs('r2', [0, 1]);
    await first.until(() => first.rows.length >= 2, 'two logs');
    await first.until(() => arrival(first.lastId) > arrival(first.rows[1].id), 'the cursor past the rows');
    first.close();
    // Stored while no tail is open.
    await sendLogs('r2', [2]);
    await sendLogs('r2', [3, 4]);
    const again = await tailOf('r2', first.lastId);
    expect(again.status).toBe(200);
    await sendLogs('r2', [5]);
    await again.until(() => again.rows.length >= 4, 'four logs');
    expect([...seqs(again)].sort()).toEqual([2, 3, 4, 5]);
    expect(seqs(again)[0]).toBe(2);
    expect(seqs(again)[3]).toBe(5);
    again.close();
  });

  it('says how many rows went over the rate instead of sending them', async () => {
    const tail = await tailOf('r3');
    await sendLogs(
      'r3',
      Array.from({ length: 40 }, (_, i) => i),
    );
    await tail.until(() => tail.rows.length + tail.skipped >= 40, 'forty rows, sent or skipped');
    expect(tail.rows.length + tail.skipped).toBe(40);
    expect(tail.skipped).toBeGreaterThan(0);
    expect(tail.rows.length).toBeGreaterThan(0);
    expect(new Set(seqs(tail)).size).toBe(tail.rows.length);
    tail.close();
  });

  it('refuses one tail over the per-user limit with 429, and closes tails on sign-out', async () => {
    const cookie = await signIn(server.lantern.baseUrl);
    const open: OpenTail[] = [];
    let refused: OpenTail | undefined;
    // Tails of earlier tests may still be closing on the server: open until the limit answers.
    for (let i = 0; i < 8 && !refused; i++) {
      const t = await openTail(server.lantern.baseUrl, cookie, { system: ['log:all'] });
      if (t.status === 200) open.push(t);
      else refused = t;
    }
    expect(refused?.status).toBe(429);
    expect(refused?.error?.code).toBe('too_many_streams');
    expect(refused?.error?.message).toMatch(/limit/);
    expect(open.length).toBeGreaterThan(0);
    expect(open.length).toBeLessThanOrEqual(4);
    // Sign-out ends this session's tails on the server.
    const out = await fetch(`${server.lantern.baseUrl}/api/v1/users/logout`, { method: 'POST', headers: { cookie } });
    expect(out.status).toBe(200);
    await Promise.all(open.map((t) => t.ended));
    const after = await openTail(server.lantern.baseUrl, cookie, { system: ['log:all'] });
    expect(after.status).toBe(401);
  });

  it('keeps its cursor across a restart on the same data', async () => {
    const first = await tailOf('r4');
    await sendLogs('r4', [0]);
    await first.until(() => first.rows.length >= 1, 'a log');
    first.close();
    await sendLogs('r4', [1]);
    const { dataDir, httpPort, grpcPort } = server.lantern;
    await server.lantern.stop();
    server.lantern = await startLantern({ dataDir, httpPort, grpcPort, env: ENV });
    server.cookie = await signIn(server.lantern.baseUrl);
    await sendLogs('r4', [2]);
    const again = await tailOf('r4', first.lastId);
    expect(again.status).toBe(200);
    await again.until(() => again.rows.length >= 2, 'two logs');
    await sendLogs('r4', [3]);
    await again.until(() => again.rows.length >= 3, 'three logs');
    expect(seqs(again)).toEqual([1, 2, 3]);
    again.close();
  });
});
