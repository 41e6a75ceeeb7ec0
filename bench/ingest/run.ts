import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PROJECT1_TOKEN, removeDataDir, startLantern, type RunningLantern } from '@lantern/testkit/harness';
import { loadConfig } from '../../packages/server/src/config';
import { runLoad } from './loadClients';
import { readCpuSeconds, readMachineCpu, readThreadCpu, threadCpuUsed, threadRoles, watchMemory } from './procStatus';
import { summariseProfile } from './profileSummary';
import { buildRequestPool, writePoolFile } from './requestPool';
import type { StageRates } from './stageRates';
import { formatAb, runAb, type AbVariant } from './ab';
import { formatSummary, type IngestBenchResult } from './summary';
import { formatNodesAb, runNodesAb } from './nodesAb';

/**
 * `bench/ingest`: realistic OTLP/HTTP protobuf trace load from concurrent clients against the real
 * server (default settings), counted only when acknowledged, which is after commit. Then, in a
 * process of its own, the same bodies through the server's stages one at a time, down to the raw
 * chDB insert of the same rows in the server's batch size. Figures: docs/benchmarks.md.
 */
const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '5' },
    clients: { type: 'string', default: '8' },
    'spans-per-request': { type: 'string', default: '1000' },
    pool: { type: 'string', default: '32' },
    seed: { type: 'string', default: '1' },
    'raw-seconds': { type: 'string', default: '15' },
    /** LANTERN_* overrides for the server, KEY=VALUE, repeatable (the default run uses none). */
    env: { type: 'string', multiple: true, default: [] },
    'cpu-prof': { type: 'boolean', default: false },
    json: { type: 'string' },
    'skip-stages': { type: 'boolean', default: false },
    /** Rounds of with / without metrics from spans (ab.ts); 0: the ordinary run. */
    'span-metrics-ab': { type: 'string', default: '0' },
    /** Rounds of embedded chDB / remote ClickHouse store through the test stand-in (ab.ts). */
    'remote-ab': { type: 'string', default: '0' },
    /** The server's main module (another version's checkout or bundle, e.g. a git worktree's), A/B variants included. */
    'server-main': { type: 'string' },
    /** The server's HTTP port (gRPC: the next one); default: any free ports. */
    port: { type: 'string' },
    /** Rounds of one node / two nodes over one ClickHouse test stand-in, clients spread over the nodes (nodesAb.ts). */
    'nodes-ab': { type: 'string', default: '0' },
  },
});

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const num = (name: keyof typeof args) => {
  const n = Number(args[name]);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`);
  return n;
};
const seconds = Math.min(num('seconds'), 600);
const warmup = Math.min(Number(args.warmup), 60);
const clients = Math.min(num('clients'), 64);
const spansPerRequest = Math.min(num('spans-per-request'), 20_000);
const poolSize = Math.min(num('pool'), 256);
const rawSeconds = Math.min(num('raw-seconds'), 120);
const serverEnv: Record<string, string> = Object.fromEntries(
  args.env.map((kv) => {
    const i = kv.indexOf('=');
    if (i < 1 || !kv.startsWith('LANTERN_')) throw new Error(`--env expects LANTERN_KEY=VALUE, got ${kv}`);
    return [kv.slice(0, i), kv.slice(i + 1)];
  }),
);
// The server's own defaults with the same overrides: the raw insert uses its batch size.
const ingestConfig = loadConfig({ env: serverEnv }).ingest;
const batchRows = ingestConfig.batch_rows;

function runStages(poolFile: string, batchRows: number, serverChDir: string): Promise<StageRates> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'bench/ingest/stageRates.ts', poolFile, String(batchRows), String(rawSeconds), serverChDir],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('STAGE_RATES '));
      if (code !== 0 || !line) reject(new Error(`stage rates failed (exit ${code}):\n${out}`));
      else resolve(JSON.parse(line.slice('STAGE_RATES '.length)) as StageRates);
    });
  });
}

/** The load run, with the server's CPU and memory and this process's CPU over the same time. */
async function measureLoad(lantern: RunningLantern, bodies: Buffer[]) {
  const pid = lantern.process.pid!;
  const memory = watchMemory(pid);
  const serverCpu0 = readCpuSeconds(pid) ?? 0;
  const clientCpu0 = process.cpuUsage();
  const machine0 = readMachineCpu();
  const threads0 = readThreadCpu(pid);
  const t0 = performance.now();
  try {
    const load = await runLoad({
      baseUrl: lantern.baseUrl,
      dsn: `http://${PROJECT1_TOKEN}@127.0.0.1:${lantern.httpPort}/1`,
      bodies,
      spansPerRequest,
      clients,
      warmupMs: warmup * 1000,
      durationMs: seconds * 1000,
    });
    const wall = (performance.now() - t0) / 1000;
    const client = process.cpuUsage(clientCpu0);
    const machine = readMachineCpu();
    const threads = threadCpuUsed(threads0, readThreadCpu(pid));
    const serverCpu = (readCpuSeconds(pid) ?? 0) - serverCpu0;
    const cpu = {
      loadSeconds: wall,
      serverCores: serverCpu / wall,
      clientCores: (client.user + client.system) / 1e6 / wall,
      machineBusyCores: (machine.busy - machine0.busy) / wall,
      idleCores: (machine.idle - machine0.idle) / wall,
      stealCores: (machine.steal - machine0.steal) / wall,
      // µs per acknowledged span (warm-up included, as the CPU is), the threads above 1%.
      threadsUsPerSpan: threads
        .filter(([, s]) => s > 0.01 * wall)
        .map(([name, s]) => [name, (s * 1e6) / load.acknowledgedSpans] as [string, number]),
      rolesUsPerSpan: threadRoles(threads, pid, ingestConfig.workers, serverCpu, load.acknowledgedSpans),
    };
    return { load, cpu, serverMemory: memory.stop() };
  } finally {
    memory.stop();
  }
}

/** The A/B run asked for, if any. */
function abVariants(work: string): { title: string; rounds: number; variants: [AbVariant, AbVariant] } | null {
  const spanMetrics = Math.min(Number(args['span-metrics-ab']) || 0, 10);
  if (spanMetrics > 0) {
    const without = join(work, 'no-span-metrics.yml');
    writeFileSync(without, 'metrics_from_spans: []\n');
    return {
      title: 'metrics from spans',
      rounds: spanMetrics,
      variants: [
        { name: 'with', start: { env: serverEnv, serverMain: args['server-main'] } },
        { name: 'without', start: { env: { ...serverEnv, LANTERN_CONFIG: without }, serverMain: args['server-main'] } },
      ],
    };
  }
  const remote = Math.min(Number(args['remote-ab']) || 0, 10);
  if (remote > 0) {
    return {
      title: 'remote ClickHouse store (test stand-in over chDB) vs embedded chDB',
      rounds: remote,
      variants: [
        { name: 'remote', start: { env: serverEnv, telemetry: 'clickhouse' } },
        { name: 'embedded', start: { env: serverEnv, telemetry: 'embedded' } },
      ],
    };
  }
  return null;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'lantern-bench-'));
  const profDir = join(ROOT, 'bench/results/profiles');
  try {
    console.log(`building ${poolSize} requests of ${spansPerRequest} spans...`);
    const pool = buildRequestPool({ requests: poolSize, spansPerRequest, seed: Number(args.seed) });
    const poolFile = join(work, 'pool.bin');
    writePoolFile(poolFile, pool.bodies);
    const nodesAb = Math.min(Number(args['nodes-ab']) || 0, 10);
    if (nodesAb > 0) {
      const rounds = await runNodesAb({
        rounds: nodesAb,
        clients,
        bodies: pool.bodies,
        spansPerRequest,
        warmupMs: warmup * 1000,
        durationMs: seconds * 1000,
        serverEnv,
      });
      console.log(formatNodesAb(rounds));
      return;
    }
    const ab = abVariants(work);
    if (ab) {
      const rounds = await runAb({
        rounds: ab.rounds,
        variants: ab.variants,
        measure: (l) => measureLoad(l, pool.bodies),
      });
      console.log(formatAb(ab.title, rounds));
      return;
    }

    const env: Record<string, string> = { ...serverEnv };
    if (args['cpu-prof']) {
      mkdirSync(profDir, { recursive: true });
      env.NODE_OPTIONS =
        `${process.env.NODE_OPTIONS ?? ''} --import=${join(ROOT, 'bench/ingest/cpuProfilePreload.mjs')}`.trim();
      env.LANTERN_BENCH_PROF_DIR = profDir;
    }
    const port = args.port === undefined ? undefined : num('port');
    const lantern = await startLantern({
      env,
      serverMain: args['server-main'],
      ...(port === undefined ? {} : { httpPort: port, grpcPort: port + 1 }),
    });
    const pid = lantern.process.pid!;
    let measured;
    let stages: StageRates | null = null;
    try {
      try {
        console.log(`server up (pid ${pid}); ${clients} clients, ${warmup} s warm-up, ${seconds} s measured...`);
        measured = await measureLoad(lantern, pool.bodies);
      } finally {
        await lantern.stop();
      }
      if (!args['skip-stages']) {
        console.log('measuring stages and the raw chDB insert of the same rows...');
        stages = await runStages(poolFile, batchRows, join(lantern.dataDir, 'ch'));
      }
    } finally {
      removeDataDir(lantern.dataDir);
    }
    const { load, cpu, serverMemory } = measured;

    let profile: IngestBenchResult['profile'] = null;
    if (args['cpu-prof']) {
      const file = readdirSync(profDir).find((f) => f === `server.${pid}.cpuprofile`);
      if (file) profile = { file: join('bench/results/profiles', file), ...summariseProfile(join(profDir, file), 15) };
    }

    const result: IngestBenchResult = {
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, model: cpus()[0]?.model ?? '', node: process.version },
      command: `node --import tsx bench/ingest/run.ts ${process.argv.slice(2).join(' ')}`.trim(),
      settings: { seconds, warmup, clients, spansPerRequest, poolRequests: poolSize, serverEnv, ingest: ingestConfig },
      pool: {
        bytesPerRequest: Math.round(pool.bodies.reduce((n, b) => n + b.length, 0) / pool.bodies.length),
        spanAttrs: pool.spanAttrs,
        totalAttrs: pool.totalAttrs,
        eventsPerSpan: pool.events / (poolSize * spansPerRequest),
      },
      load,
      cpu,
      serverMemory,
      stages,
      profile,
    };
    console.log(formatSummary(result));
    if (args.json) {
      const file = args.json.endsWith('.json')
        ? args.json
        : join(args.json, `ingest-${result.date.slice(0, 19).replace(/:/g, '')}.json`);
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, `${JSON.stringify({ ...result, load: { ...load, latenciesMs: undefined } }, null, 2)}\n`);
      console.log(`\nwrote ${file}`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
