import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openChdbStore, type TelemetryStore } from '../../storage/telemetry';
import { testSpanRow } from '../../storage/telemetry/testSpanRow';
import type { SpanRow } from '../../storage/telemetry/spanRow';
import { sql } from '../../storage/sql';
import { pairingSql } from './pairingSql';
import { createServiceGraphService } from './serviceGraph.service';
import { createServiceGraphJob } from './serviceGraphJob';

/**
 * The service graph job against the real engine (embedded chDB), with its clock in the test's
 * hands: provisional windows rewritten as the halves of a call come in, a window final after its
 * wait, and a run cut short between its rows and its record (a crash) that is never read and
 * never counted twice. serviceGraph.int.test.ts drives the whole server with real SDKs.
 */
const MINUTE = 60_000;
const WAIT = 2 * MINUTE;
const T0 = Math.floor(Date.now() / MINUTE) * MINUTE - 30 * MINUTE;
const ns = (ms: number) => BigInt(ms) * 1_000_000n;
const TRACE = 'ef'.repeat(16);

let dir: string;
let store: TelemetryStore;
const job = () =>
  createServiceGraphJob({
    telemetry: store,
    log: pino({ level: 'silent' }),
    waitMs: WAIT,
    backfillMs: 3 * 60 * MINUTE,
    maxWindows: 6 * 60,
  });
const read = () =>
  createServiceGraphService(store).graph({
    projectId: 1,
    gte: new Date(T0 - 60 * MINUTE),
    lt: new Date(T0 + 60 * MINUTE),
  });
const at = (ms: number) => new Date(T0 + ms);

const span = (fields: Partial<SpanRow>) => testSpanRow({ traceId: TRACE, ...fields });
const client = span({
  id: 11n,
  parentId: 10n,
  kind: 'client',
  timeNs: ns(T0 + 10_000),
  durationNs: 30e6,
  attrs: { 'service.name': 'web', 'http.method': 'GET', 'net.peer.name': 'api.internal' },
});
const callerRoot = span({
  id: 10n,
  parentId: 0n,
  kind: 'server',
  timeNs: ns(T0 + 9_000),
  durationNs: 40e6,
  attrs: { 'service.name': 'web' },
});
// The server half starts in the next minute and comes in a later batch.
const serverHalf = span({
  id: 12n,
  parentId: 11n,
  kind: 'server',
  timeNs: ns(T0 + 70_000),
  durationNs: 20e6,
  attrs: { 'service.name': 'api' },
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-graph-'));
  store = openChdbStore({
    path: dir,
    ttl: { spansDays: 30, metricsDays: 90 },
    maxMemoryUsage: 2 ** 31,
    maxThreads: 2,
    rollupIntervalMs: 0,
  });
  await store.migrate();
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('service graph job', () => {
  it('leaves a lone client span out while it waits, then replaces the provisional window when its server half comes', async () => {
    await store.insertSpans([callerRoot, client]);
    // 30 s after the client started: still within its wait, so no edge yet; its caller's call is in.
    await job().run(at(40_000));
    let g = await read();
    expect(g.edges.map((e) => `${e.client}->${e.server}`)).toEqual(['user->web']);

    // The server half arrives a minute later in span time; the window is written again, paired.
    await store.insertSpans([serverHalf]);
    await job().run(at(100_000));
    g = await read();
    expect(g.edges.map((e) => [e.client, e.server, e.calls, e.p50])).toEqual([
      ['user', 'web', 1, 40e6],
      ['web', 'api', 1, 30e6],
    ]);
    expect(g.nodes.find((n) => n.name === 'api')).toMatchObject({ calls: 1, p50: 20e6, virtual: false });
  });

  it('counts nothing twice over reruns, nor the rows of a run cut short before its record', async () => {
    const before = await read();
    await job().run(at(110_000));
    await job().run(at(110_000));
    expect(await read()).toEqual(before);
    // A crash after a run's rows and before its record: rows under a run number nobody recorded.
    const orphan = BigInt(Date.now() + 10 * MINUTE);
    await store.command(
      pairingSql({
        from: new Date(T0),
        to: new Date(T0 + 2 * MINUTE),
        run: orphan,
        expiredBefore: at(110_000),
      }),
    );
    expect(await read()).toEqual(before);
    // The next run numbers itself above them, so its rows are not read together with theirs.
    const next = await job().run(at(120_000));
    expect(next.run).toBeGreaterThan(orphan);
    expect(await read()).toEqual(before);
  });

  it('makes a window final after its wait: a lone client span then calls a virtual node, until its server half comes late', async () => {
    const lone = span({
      id: 21n,
      parentId: 10n,
      kind: 'client',
      timeNs: ns(T0 + 20_000),
      durationNs: 5e6,
      attrs: { 'service.name': 'web', 'http.method': 'GET', 'server.address': 'pay.example', 'server.port': 443 },
    });
    await store.insertSpans([lone]);
    const r = await job().run(at(4 * MINUTE));
    expect(r.final).toBeGreaterThan(0);
    let g = await read();
    expect(g.edges.find((e) => e.server === 'pay.example:443')).toMatchObject({
      client: 'web',
      calls: 1,
      connectionType: 'http',
    });
    expect(g.nodes.find((n) => n.name === 'pay.example:443')).toMatchObject({
      type: 'external',
      virtual: true,
      calls: 1,
    });
    // Nothing changed: the final windows are not written again.
    expect((await job().run(at(4 * MINUTE + 10_000))).late).toBe(0);

    // Its server half an hour late: the window's span count changed, so it is written again, paired.
    await store.insertSpans([
      span({ id: 22n, parentId: 21n, kind: 'server', timeNs: ns(T0 + 21_000), attrs: { 'service.name': 'pay' } }),
    ]);
    expect((await job().run(at(34 * MINUTE))).late).toBeGreaterThan(0);
    g = await read();
    expect(g.edges.find((e) => e.server === 'pay')).toMatchObject({ client: 'web', calls: 1 });
    expect(g.edges.find((e) => e.server === 'pay.example:443')).toBeUndefined();
    expect(g.edges.find((e) => e.server === 'api')).toMatchObject({ calls: 1 });
  });

  it('folds whole hours once their minutes are final, and reads them instead of the minutes with the same answer', async () => {
    const before = await read();
    const r = await job().run(at(3 * 60 * MINUTE));
    expect(r.hours).toBeGreaterThan(0);
    const [{ n }] = await store.query<{ n: string }>(sql`SELECT toString(count()) AS n FROM service_graph_hours`);
    expect(Number(n)).toBeGreaterThan(0);
    expect(await read()).toEqual(before);
    // Nothing new: no hour is folded again.
    expect((await job().run(at(3 * 60 * MINUTE))).hours).toBe(0);
    // A late span in a folded hour: its minutes are written again, then its hour.
    await store.insertSpans([
      span({
        traceId: 'a1'.repeat(16),
        id: 31n,
        parentId: 0n,
        kind: 'server',
        timeNs: ns(T0 + 25_000),
        attrs: { 'service.name': 'web' },
      }),
    ]);
    const again = await job().run(at(3 * 60 * MINUTE + 60_000));
    expect(again.late).toBeGreaterThan(0);
    expect(again.hours).toBeGreaterThan(0);
    expect((await read()).edges.find((e) => e.client === 'user' && e.server === 'web')?.calls).toBe(2);
  });

  it('keeps a root server span and a server span nested under it as two calls', async () => {
    const nested = 'b2'.repeat(16);
    const minute = T0 + 5 * 60 * MINUTE;
    await store.insertSpans([
      span({
        traceId: nested,
        id: 41n,
        parentId: 0n,
        kind: 'server',
        timeNs: ns(minute + 1000),
        attrs: { 'service.name': 'gw' },
      }),
      span({
        traceId: nested,
        id: 42n,
        parentId: 41n,
        kind: 'server',
        timeNs: ns(minute + 2000),
        attrs: { 'service.name': 'gw' },
      }),
    ]);
    await job().run(new Date(minute + 10 * MINUTE));
    const g = await createServiceGraphService(store).graph({
      projectId: 1,
      gte: new Date(minute),
      lt: new Date(minute + MINUTE),
    });
    expect(g.nodes.find((n) => n.name === 'gw')).toMatchObject({ calls: 2 });
    expect(g.edges).toEqual([expect.objectContaining({ client: 'user', server: 'gw', calls: 1 })]);
  });

  it('splits services by environment in projects that group by environment', async () => {
    const envTrace = 'c3'.repeat(16);
    const minute = T0 + 6 * 60 * MINUTE;
    const env = (e: string) => ({ 'service.name': 'shop', 'deployment.environment': e });
    await store.insertSpans([
      span({ traceId: envTrace, id: 51n, parentId: 0n, kind: 'server', timeNs: ns(minute + 1000), attrs: env('prod') }),
      span({
        traceId: envTrace,
        id: 52n,
        parentId: 0n,
        kind: 'server',
        timeNs: ns(minute + 2000),
        attrs: env('staging'),
      }),
      span({
        traceId: envTrace,
        id: 53n,
        parentId: 0n,
        kind: 'server',
        timeNs: ns(minute + 3000),
        attrs: env('prod'),
        projectId: 2,
      }),
    ]);
    const split = createServiceGraphJob({
      telemetry: store,
      log: pino({ level: 'silent' }),
      waitMs: WAIT,
      envProjects: [1],
    });
    await split.run(new Date(minute + 10 * MINUTE));
    const graphOf = (projectId: number) =>
      createServiceGraphService(store).graph({ projectId, gte: new Date(minute), lt: new Date(minute + MINUTE) });
    expect((await graphOf(1)).nodes.filter((n) => !n.virtual).map((n) => [n.name, n.calls])).toEqual([
      ['shop (prod)', 1],
      ['shop (staging)', 1],
    ]);
    expect((await graphOf(2)).nodes.filter((n) => !n.virtual).map((n) => [n.name, n.calls])).toEqual([['shop', 1]]);
  });
});
