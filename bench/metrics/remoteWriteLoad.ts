import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { PROJECT1_TOKEN, removeDataDir, startLantern } from '@lantern/testkit/harness';
import { watchRss } from '@lantern/testkit/hardening/procRss';
import { readThreadCpu } from '../ingest/procStatus';
import { cpuSeconds } from './procCpu';
import { startRemoteWritePrometheus } from './prometheusServer';
import { encodeWriteRequest, loadSeries, snappyLiteral, type PromSeries } from './remoteWrite';

/**
 * `bench/metrics/remoteWriteLoad.ts` (issue 39, part 1): the same Prometheus remote-write load sent
 * by the same client to Lantern and to Prometheus 2.42 (`--web.enable-remote-write-receiver`), one
 * after the other: `--series` counter series, `--samples` samples each 15 s apart in sample time
 * (ending now), requests of `--per-request` samples, `--senders` concurrent senders, each owning a
 * quarter of the series and sending them in time order (what a Prometheus with several shards
 * does). Reported per system: accepted samples/s (every request answered 2xx; a 429 is retried
 * after 200 ms and its time counts), server CPU µs per sample, peak RSS, and the load average.
 * `--base-main <main.js>`: also a Lantern bundle of another commit (an A/B in the same run).
 *
 *   node --import tsx bench/metrics/remoteWriteLoad.ts [--series 20000] [--samples 120] [--per-request 2000]
 *     [--senders 4] [--base-main path/to/main.js] [--prometheus /usr/bin/prometheus] [--skip-prometheus]
 *     [--skip-lantern] [--lantern-url http://127.0.0.1:PORT --lantern-pid PID] [--threads]
 *
 * `--lantern-url` (with its `--lantern-pid`) sends to a server started by hand instead (e.g. under
 * `node --cpu-prof`, to profile its threads), `--skip-lantern` implied for the others.
 */
const { values: args } = parseArgs({
  options: {
    series: { type: 'string', default: '20000' },
    samples: { type: 'string', default: '120' },
    'per-request': { type: 'string', default: '2000' },
    senders: { type: 'string', default: '4' },
    'base-main': { type: 'string' },
    prometheus: { type: 'string', default: '/usr/bin/prometheus' },
    'skip-prometheus': { type: 'boolean', default: false },
    'skip-lantern': { type: 'boolean', default: false },
    'lantern-url': { type: 'string' },
    'lantern-pid': { type: 'string' },
    threads: { type: 'boolean', default: false },
  },
});
const SERIES = Number(args.series);
const SAMPLES = Number(args.samples);
const PER_REQUEST = Number(args['per-request']);
const SENDERS = Number(args.senders);
const STEP_MS = 15_000;

/** Per sender, its requests in time order: its series' samples, time-major, PER_REQUEST at a time. */
function senderBodies(): Buffer[][] {
  const end = Math.floor(Date.now() / STEP_MS) * STEP_MS;
  const start = end - SAMPLES * STEP_MS;
  return Array.from({ length: SENDERS }, (_, s) => {
    const mine: number[] = [];
    for (let i = s; i < SERIES; i += SENDERS) mine.push(i);
    const bodies: Buffer[] = [];
    let batch: PromSeries[] = [];
    let inBatch = 0;
    for (let k = 0; k < SAMPLES; k++) {
      for (const i of mine) {
        batch.push(loadSeries(i, k, start + k * STEP_MS));
        if (++inBatch === PER_REQUEST) {
          bodies.push(snappyLiteral(encodeWriteRequest(batch)));
          batch = [];
          inBatch = 0;
        }
      }
    }
    if (inBatch > 0) bodies.push(snappyLiteral(encodeWriteRequest(batch)));
    return bodies;
  });
}

const round = (x: number) => Math.round(x * 10) / 10;

async function sendAll(bodies: Buffer[][], url: string, headers: Record<string, string>) {
  let retried = 0;
  const t0 = performance.now();
  await Promise.all(
    bodies.map(async (mine) => {
      for (const body of mine) {
        for (;;) {
          const res = await fetch(url, { method: 'POST', headers, body });
          await res.arrayBuffer();
          if (res.status === 429 || res.status === 503) {
            retried++;
            await new Promise((r) => setTimeout(r, 200));
            continue;
          }
          if (res.status >= 300) throw new Error(`${url} answered ${res.status}`);
          break;
        }
      }
    }),
  );
  return { seconds: (performance.now() - t0) / 1000, retried };
}

const HEADERS = {
  'content-type': 'application/x-protobuf',
  'content-encoding': 'snappy',
  'x-prometheus-remote-write-version': '0.1.0',
};

/**
 * `--threads`: a Node server's CPU µs per sample by thread group, from /proc/<pid>/task. The Node
 * threads are all named `node`: the main thread is the process's own id; those started after the
 * engine's first thread are the prepare pool's workers (the pool starts after the store opens; a
 * few engine threads named `node` fall there too, with next to no CPU); the earlier ones are V8's
 * and libuv's helpers (GC marking and scavenges, file I/O). Every other name is chDB's.
 */
function threadGroups(pid: number, before: Map<string, number>, after: Map<string, number>, samples: number) {
  const tidOf = (key: string) => Number(key.slice(key.lastIndexOf('#') + 1));
  const firstEngine = Math.min(...[...after.keys()].filter((k) => !k.startsWith('node#')).map(tidOf));
  const groups: Record<string, number> = { main: 0, workers: 0, nodeHelpers: 0, chdb: 0 };
  for (const [key, s] of after) {
    const used = s - (before.get(key) ?? 0);
    if (used <= 0) continue;
    const tid = tidOf(key);
    const group = !key.startsWith('node#')
      ? 'chdb'
      : tid === pid
        ? 'main'
        : tid > firstEngine
          ? 'workers'
          : 'nodeHelpers';
    groups[group] += used;
  }
  return Object.fromEntries(Object.entries(groups).map(([k, s]) => [k, round((s * 1e6) / samples)]));
}

async function measure(pid: number, bodies: Buffer[][], url: string, headers: Record<string, string>, node = true) {
  const rss = watchRss(pid);
  const cpu0 = cpuSeconds(pid);
  const threads0 = args.threads && node ? readThreadCpu(pid) : null;
  const { seconds, retried } = await sendAll(bodies, url, headers);
  const samples = SERIES * SAMPLES;
  const threads = threads0 ? { threadUsPerSample: threadGroups(pid, threads0, readThreadCpu(pid), samples) } : {};
  return {
    samples,
    seconds: round(seconds),
    samplesPerSec: Math.round(samples / seconds),
    serverCpuUsPerSample: round(((cpuSeconds(pid) - cpu0) * 1e6) / samples),
    peakRssMB: Math.round(rss.stop() / 2 ** 20),
    retried429: retried,
    loadAvg: round(loadavg()[0]),
    ...threads,
  };
}

async function lantern(bodies: Buffer[][], serverMain?: string) {
  if (args['lantern-url'] && !serverMain)
    return measure(Number(args['lantern-pid']), bodies, `${args['lantern-url']}/api/v1/prometheus/write`, {
      ...HEADERS,
      authorization: `Bearer ${PROJECT1_TOKEN}`,
    });
  const server = await startLantern(serverMain ? { serverMain } : {});
  try {
    return await measure(server.process.pid!, bodies, `${server.baseUrl}/api/v1/prometheus/write`, {
      ...HEADERS,
      authorization: `Bearer ${PROJECT1_TOKEN}`,
    });
  } finally {
    await server.stop();
    removeDataDir(server.dataDir);
  }
}

async function prometheus(bodies: Buffer[][]) {
  const prom = await startRemoteWritePrometheus(args.prometheus);
  try {
    return await measure(prom.pid, bodies, `${prom.base}/api/v1/write`, HEADERS, false);
  } finally {
    await prom.stop();
  }
}

console.log(
  `encoding ${SERIES} series x ${SAMPLES} samples (15 s apart), ${PER_REQUEST} samples a request, ${SENDERS} senders...`,
);
const bodies = senderBodies();
const results: Record<string, Awaited<ReturnType<typeof measure>>> = {};
if (!args['skip-lantern']) {
  results.lantern = await lantern(bodies);
  console.log(JSON.stringify({ lantern: results.lantern }));
}
if (args['base-main']) {
  results.lanternBase = await lantern(bodies, args['base-main']);
  console.log(JSON.stringify({ lanternBase: results.lanternBase }));
}
if (!args['skip-prometheus']) {
  results.prometheus = await prometheus(bodies);
  console.log(JSON.stringify({ prometheus: results.prometheus }));
}
const ratio = (a: string, b: string) =>
  results[a] && results[b] ? (results[a].samplesPerSec / results[b].samplesPerSec).toFixed(2) : 'n/a';
console.log(
  `accepted samples/s: ${Object.entries(results)
    .map(([k, v]) => `${k} ${v.samplesPerSec}`)
    .join(
      ', ',
    )}; Lantern / Prometheus ${ratio('lantern', 'prometheus')}, Lantern / base ${ratio('lantern', 'lanternBase')}`,
);
