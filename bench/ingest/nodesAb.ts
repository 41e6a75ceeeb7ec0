import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { randomBytes } from 'node:crypto';
import { createClient } from '@clickhouse/client';
import { startClickHouseStandIn } from '@lantern/testkit/clickhouse/fixture';
import {
  PROJECT1_TOKEN,
  removeDataDir,
  startLantern,
  tempDataDir,
  type RunningLantern,
} from '@lantern/testkit/harness';
import { pgDatabaseFor, startTestPostgres } from '@lantern/testkit/postgres';
import { runLoad, type LoadResult } from './loadClients';
import { readCpuSeconds } from './procStatus';

/**
 * `--nodes-ab N`: ingest through one Lantern node and through two, against the same kind of
 * remote store (the ClickHouse test stand-in over chDB, a fresh one per variant) and one
 * PostgreSQL (a fresh database per variant), N rounds alternating which goes first. With two
 * nodes the clients are spread over both, as a load balancer would. After each variant the
 * nodes are stopped and the spans in the store are counted: every acknowledged span must be
 * there (docs/scale-out.md "Capacity", docs/benchmarks.md).
 */
export interface NodesRound {
  variant: string;
  spansPerSecond: number;
  p50Ms: number;
  /** CPU of the Lantern processes, in cores. */
  lanternCores: number;
  /** Busy cores of the whole machine over the load (every process, other work included). */
  machineCores: number;
  acknowledged: number;
  stored: number;
  throttled: number;
  errors: number;
}

export async function runNodesAb(opts: {
  rounds: number;
  clients: number;
  bodies: readonly Buffer[];
  spansPerRequest: number;
  warmupMs: number;
  durationMs: number;
  serverEnv: Record<string, string>;
}): Promise<NodesRound[]> {
  const pg = await startTestPostgres();
  const out: NodesRound[] = [];
  try {
    for (let r = 0; r < opts.rounds; r++) {
      for (const nodes of r % 2 === 0 ? [1, 2] : [2, 1]) {
        console.log(`round ${r + 1}/${opts.rounds}, ${nodes} node(s)...`);
        out.push(await measureVariant(nodes, pg.url, opts));
      }
    }
  } finally {
    pg.stop();
  }
  return out;
}

async function measureVariant(
  count: number,
  pgUrl: string,
  opts: Parameters<typeof runNodesAb>[0],
): Promise<NodesRound> {
  const dir = tempDataDir();
  const standIn = await startClickHouseStandIn();
  const nodes: RunningLantern[] = [];
  try {
    const env = {
      ...opts.serverEnv,
      LANTERN_CH_URL: standIn.url,
      LANTERN_DB_URL: await pgDatabaseFor(pgUrl, dir),
      LANTERN_SECRET_KEY: randomBytes(32).toString('hex'),
    };
    // One after the other: the first runs the migrations.
    for (let i = 0; i < count; i++) nodes.push(await startLantern({ env, telemetry: 'embedded' }));
    const cpu0 = nodes.map((n) => readCpuSeconds(n.process.pid!) ?? 0);
    const machine0 = machineTicks();
    const t0 = performance.now();
    // Clients spread over the nodes (the remainder to the first ones).
    const loads = await Promise.all(
      nodes.map((n, i) =>
        runLoad({
          baseUrl: n.baseUrl,
          dsn: `http://${PROJECT1_TOKEN}@127.0.0.1:${n.httpPort}/1`,
          bodies: opts.bodies,
          spansPerRequest: opts.spansPerRequest,
          clients: Math.floor(opts.clients / count) + (i < opts.clients % count ? 1 : 0),
          warmupMs: opts.warmupMs,
          durationMs: opts.durationMs,
        }),
      ),
    );
    const wall = (performance.now() - t0) / 1000;
    const lanternCores = nodes.reduce((s, n, i) => s + ((readCpuSeconds(n.process.pid!) ?? 0) - cpu0[i]), 0) / wall;
    const machine1 = machineTicks();
    const machineCores = ((machine1.busy - machine0.busy) / (machine1.total - machine0.total)) * machine1.cpus;
    for (const n of nodes) await n.stop();
    const stored = await storedSpans(standIn.url);
    const sum = (f: (l: LoadResult) => number) => loads.reduce((s, l) => s + f(l), 0);
    const latencies = loads.flatMap((l) => l.latenciesMs).sort((a, b) => a - b);
    return {
      variant: count === 1 ? 'one node' : `${count} nodes`,
      spansPerSecond: sum((l) => l.spans) / (opts.durationMs / 1000),
      p50Ms: latencies[Math.floor(latencies.length / 2)] ?? NaN,
      lanternCores,
      machineCores,
      acknowledged: sum((l) => l.acknowledgedSpans),
      stored,
      throttled: sum((l) => l.throttled),
      errors: sum((l) => l.errors),
    };
  } finally {
    for (const n of nodes) {
      await n.stop();
      removeDataDir(n.dataDir);
    }
    await standIn.stop();
    removeDataDir(dir);
  }
}

/** Spans in the store (span rows of spans_data; events have rows of their own there). */
async function storedSpans(url: string): Promise<number> {
  const client = createClient({ url });
  try {
    const rs = await client.query({
      query: 'SELECT count() AS n FROM spans_data WHERE NOT is_event',
      format: 'JSONEachRow',
    });
    return Number((await rs.json<{ n: string }>())[0].n);
  } finally {
    await client.close();
  }
}

/** Jiffies of all CPUs from /proc/stat: busy (not idle or iowait) and total. */
function machineTicks(): { busy: number; total: number; cpus: number } {
  const stat = readFileSync('/proc/stat', 'utf8');
  const [, ...fields] = stat.split('\n')[0].trim().split(/\s+/);
  const n = fields.map(Number);
  const total = n.reduce((a, b) => a + b, 0);
  const idle = n[3] + (n[4] ?? 0);
  const cpus = stat.split('\n').filter((l) => /^cpu\d+ /.test(l)).length;
  return { busy: total - idle, total, cpus };
}

export function formatNodesAb(rounds: readonly NodesRound[]): string {
  const mean = (v: string, f: (r: NodesRound) => number) => {
    const xs = rounds.filter((r) => r.variant === v).map(f);
    return xs.reduce((a, b) => a + b, 0) / xs.length;
  };
  const names = [...new Set(rounds.map((r) => r.variant))].sort();
  const lines = rounds.map(
    (r) =>
      `  ${r.variant.padEnd(9)} ${(r.spansPerSecond / 1000).toFixed(1)}k spans/s, p50 ${r.p50Ms.toFixed(0)} ms, ` +
      `Lantern ${r.lanternCores.toFixed(2)} cores (${(r.spansPerSecond / r.lanternCores / 1000).toFixed(1)}k spans/s per core), ` +
      `machine ${r.machineCores.toFixed(2)} cores busy, acknowledged ${r.acknowledged}, stored ${r.stored}` +
      `${r.stored >= r.acknowledged ? '' : ' (MISSING SPANS)'}, 429 ${r.throttled}, errors ${r.errors}`,
  );
  const [two, one] = [names.find((n) => n !== 'one node')!, 'one node'];
  const a = mean(one, (r) => r.spansPerSecond);
  const b = mean(two, (r) => r.spansPerSecond);
  return [
    `one node vs two nodes over one ClickHouse test stand-in and one PostgreSQL (load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}):`,
    ...lines,
    `  mean: one node ${(a / 1000).toFixed(1)}k, ${two} ${(b / 1000).toFixed(1)}k spans/s: ${two} / one node = ${(b / a).toFixed(2)}`,
    `  every acknowledged span stored: ${rounds.every((r) => r.stored >= r.acknowledged) ? 'yes' : 'NO'}`,
  ].join('\n');
}
