import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { PROJECT1_TOKEN, removeDataDir, signIn, startLantern } from '@lantern/testkit/harness';
import { benchOtlpBodies, benchTimes, inc, seriesAttrs } from './otlpBodies';
import { cpuSeconds } from './procCpu';
import { startRemoteWritePrometheus } from './prometheusServer';
import { encodeWriteRequest, snappyLiteral, type PromSeries } from './remoteWrite';

/**
 * `bench/metrics`: 10k counter series over the last 24 hours (one point per series every 5
 * minutes by default) sent to Lantern as OTLP/HTTP protobuf delta counters, counted when
 * acknowledged (after commit); then 1-hour and 24-hour timeseries queries over all series, as a
 * total and grouped by host. Then the same series, as cumulative counters, into Prometheus
 * (Debian's 2.42) by remote write, and the equivalent query_range calls. One system at a time;
 * the ingest ratio Lantern / Prometheus is printed at the end.
 *
 *   node --import tsx bench/metrics/run.ts [--series 10000] [--step-min 5] [--hours 24] [--clients 4]
 *     [--points-per-request 5000] [--runs 10] [--prometheus /usr/bin/prometheus]
 *     [--skip-prometheus] [--skip-remote-write] [--skip-queries]
 *
 * The machine's load average is printed with each system's ingest figure (the machine is shared).
 */
const { values: args } = parseArgs({
  options: {
    series: { type: 'string', default: '10000' },
    'step-min': { type: 'string', default: '5' },
    hours: { type: 'string', default: '24' },
    clients: { type: 'string', default: '4' },
    'points-per-request': { type: 'string', default: '5000' },
    runs: { type: 'string', default: '10' },
    prometheus: { type: 'string', default: '/usr/bin/prometheus' },
    'skip-prometheus': { type: 'boolean', default: false },
    'skip-remote-write': { type: 'boolean', default: false },
    'skip-queries': { type: 'boolean', default: false },
  },
});
const SERIES = Number(args.series);
const STEP_MS = Number(args['step-min']) * 60_000;
const HOURS = Number(args.hours);
const CLIENTS = Number(args.clients);
const PER_REQUEST = Number(args['points-per-request']);
const RUNS = Number(args.runs);

const { times, end } = benchTimes({ stepMs: STEP_MS, hours: HOURS });
const otlpBodies = () =>
  benchOtlpBodies({ series: SERIES, stepMs: STEP_MS, hours: HOURS, perRequest: PER_REQUEST }, times);

function promBodies(): Buffer[] {
  const totals = new Float64Array(SERIES);
  return times.map((t, k) => {
    const series: PromSeries[] = [];
    for (let i = 0; i < SERIES; i++) {
      totals[i] += inc(i, k);
      const a = seriesAttrs(i);
      series.push({
        labels: [
          ['__name__', 'bench_requests_total'],
          ['host', a.host],
          ['route', a.route],
        ],
        samples: [{ value: totals[i], timestampMs: t }],
      });
    }
    return snappyLiteral(encodeWriteRequest(series));
  });
}

async function sendAll(bodies: Buffer[], send: (b: Buffer) => Promise<Response>): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < bodies.length) {
        const b = bodies[next++];
        for (;;) {
          const res = await send(b);
          if (res.status === 429 || res.status === 503) {
            await res.arrayBuffer();
            await new Promise((r) => setTimeout(r, 200));
            continue;
          }
          if (res.status >= 300) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
          await res.arrayBuffer();
          break;
        }
      }
    }),
  );
  return (performance.now() - t0) / 1000;
}

async function timeQueries(
  label: string,
  run: () => Promise<unknown>,
): Promise<{ label: string; medianMs: number; p95Ms: number; maxMs: number }> {
  await run(); // warm
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))];
  return { label, medianMs: round(at(0.5)), p95Ms: round(at(0.95)), maxMs: round(ms[ms.length - 1]) };
}
const round = (x: number) => Math.round(x * 10) / 10;
/** The 1-minute load average when a system's ingest ended (other work shares the machine). */
const load = () => round(loadavg()[0]);

async function benchLantern() {
  console.log(`encoding ${SERIES} series x ${times.length} points as OTLP...`);
  const { bodies, points } = otlpBodies();
  const lantern = await startLantern();
  try {
    const dsn = `http://${PROJECT1_TOKEN}@127.0.0.1:${lantern.httpPort}/1`;
    console.log(`sending ${points} datapoints in ${bodies.length} requests with ${CLIENTS} clients...`);
    const cpu0 = cpuSeconds(lantern.process.pid!);
    const secs = await sendAll(bodies, (b) =>
      fetch(`${lantern.baseUrl}/v1/metrics`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-protobuf', 'lantern-dsn': dsn },
        body: b,
      }),
    );
    const cookie = await signIn(lantern.baseUrl);
    const query = async (hours: number, q: string, expectSeries: number) => {
      const gte = new Date(end - hours * 3600_000).toISOString();
      const lt = new Date(end).toISOString();
      const res = await fetch(
        `${lantern.baseUrl}/api/v1/metrics/1/timeseries?time_gte=${gte}&time_lt=${lt}&metric=bench.requests&alias=c&query=${encodeURIComponent(q)}`,
        { headers: { cookie } },
      );
      const body = (await res.json()) as { timeseries: unknown[]; query: { parts: { error: string }[] } };
      if (res.status !== 200 || body.timeseries.length !== expectSeries || body.query.parts.some((p) => p.error)) {
        throw new Error(`unexpected answer ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
      }
    };
    const queries = [];
    for (const hours of [1, 24].filter((h) => h <= HOURS && !args['skip-queries'])) {
      queries.push(
        await timeQueries(`${hours}h per_min($c) (all series summed)`, () => query(hours, 'per_min($c)', 1)),
      );
      queries.push(
        await timeQueries(`${hours}h per_min($c) | group by host (100 series out)`, () =>
          query(hours, 'per_min($c) | group by host', 100),
        ),
      );
    }
    return {
      points,
      seconds: round(secs),
      pointsPerSec: Math.round(points / secs),
      serverCpuUsPerPoint: round(((cpuSeconds(lantern.process.pid!) - cpu0) * 1e6) / points),
      loadAvg: load(),
      queries,
    };
  } finally {
    await lantern.stop();
    removeDataDir(lantern.dataDir);
  }
}

/** The Prometheus bodies (remote write, cumulative counters) into Lantern's receiver, in time order. */
async function benchLanternRemoteWrite() {
  console.log(`encoding ${SERIES} series x ${times.length} samples as remote write...`);
  const bodies = promBodies();
  const lantern = await startLantern();
  try {
    console.log(
      `sending ${SERIES * times.length} samples in ${bodies.length} remote-write requests to Lantern (in time order)...`,
    );
    const t0 = performance.now();
    for (const b of bodies) {
      const res = await fetch(`${lantern.baseUrl}/api/v1/prometheus/write`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-protobuf',
          'content-encoding': 'snappy',
          authorization: `Bearer ${PROJECT1_TOKEN}`,
        },
        body: b,
      });
      if (res.status !== 204) throw new Error(`remote write answered ${res.status}: ${await res.text()}`);
    }
    const secs = (performance.now() - t0) / 1000;
    const samples = SERIES * times.length;
    return { samples, seconds: round(secs), samplesPerSec: Math.round(samples / secs), loadAvg: load() };
  } finally {
    await lantern.stop();
    removeDataDir(lantern.dataDir);
  }
}

async function benchPrometheus() {
  console.log(`encoding ${SERIES} series x ${times.length} samples as remote write...`);
  const bodies = promBodies();
  const prom = await startRemoteWritePrometheus(args.prometheus);
  const base = prom.base;
  try {
    console.log(
      `sending ${SERIES * times.length} samples in ${bodies.length} remote-write requests (in time order)...`,
    );
    // One client: remote write needs samples of a series in time order.
    const cpu0 = cpuSeconds(prom.pid);
    const secs = await (async () => {
      const t0 = performance.now();
      for (const b of bodies) {
        const res = await fetch(`${base}/api/v1/write`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-protobuf',
            'content-encoding': 'snappy',
            'x-prometheus-remote-write-version': '0.1.0',
          },
          body: b,
        });
        if (res.status >= 300) throw new Error(`remote write answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
      }
      return (performance.now() - t0) / 1000;
    })();
    const query = async (hours: number, expr: string, step: number, expectSeries: number) => {
      const params = new URLSearchParams({
        query: expr,
        start: String((end - hours * 3600_000) / 1000),
        end: String(end / 1000),
        step: String(step),
      });
      const res = await fetch(`${base}/api/v1/query_range?${params}`);
      const body = (await res.json()) as { status: string; data: { result: unknown[] } };
      if (body.status !== 'success' || body.data.result.length !== expectSeries)
        throw new Error(`unexpected answer: ${JSON.stringify(body).slice(0, 300)}`);
    };
    const queries = [];
    for (const hours of [1, 24].filter((h) => h <= HOURS && !args['skip-queries'])) {
      // The steps Lantern picks (1 min for 1 h, 15 min for 24 h); the window must hold two samples.
      const step = hours === 1 ? 60 : 900;
      const window = Math.max(step, (2 * STEP_MS) / 1000);
      queries.push(
        await timeQueries(`${hours}h sum(increase[${window / 60}m]) step ${step / 60}m`, () =>
          query(hours, `sum(increase(bench_requests_total[${window}s]))`, step, 1),
        ),
      );
      queries.push(
        await timeQueries(`${hours}h sum by (host)(increase[${window / 60}m]) step ${step / 60}m`, () =>
          query(hours, `sum by (host) (increase(bench_requests_total[${window}s]))`, step, 100),
        ),
      );
    }
    const samples = SERIES * times.length;
    return {
      samples,
      seconds: round(secs),
      samplesPerSec: Math.round(samples / secs),
      serverCpuUsPerPoint: round(((cpuSeconds(prom.pid) - cpu0) * 1e6) / samples),
      loadAvg: load(),
      queries,
    };
  } finally {
    await prom.stop();
  }
}

const lantern = await benchLantern();
console.log(JSON.stringify({ lantern }, null, 2));
if (!args['skip-remote-write']) {
  const lanternRemoteWrite = await benchLanternRemoteWrite();
  console.log(JSON.stringify({ lanternRemoteWrite }, null, 2));
}
if (!args['skip-prometheus']) {
  const prometheus = await benchPrometheus();
  console.log(JSON.stringify({ prometheus }, null, 2));
  console.log(
    `ingest: Lantern ${lantern.pointsPerSec} datapoints/s, Prometheus ${prometheus.samplesPerSec} samples/s, ratio ${(lantern.pointsPerSec / prometheus.samplesPerSec).toFixed(2)}; ` +
      `server CPU per point: Lantern ${lantern.serverCpuUsPerPoint} us, Prometheus ${prometheus.serverCpuUsPerPoint} us`,
  );
}
