import { execFile, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { freePort, PROJECT1_TOKEN, removeDataDir, startLantern } from '@lantern/testkit/harness';
import { PROMETHEUS, PROMTOOL } from '@lantern/testkit/promql';
import { encodeWriteRequest, snappyLiteral, type PromSeries } from '../metrics/remoteWrite';

/**
 * `bench/promql`: PromQL over the same data in Lantern and in Prometheus (issue 37). 10,000 series
 * over the last 24 hours, one sample a minute: 9,000 counters `bench_requests_total{job, instance}`
 * (10 jobs) and a classic histogram `bench_latency_seconds_bucket{job, instance, le}` (100
 * instances x 10 buckets). Prometheus (Debian's 2.42) gets them backfilled into its TSDB
 * (promtool tsdb create-blocks-from openmetrics), Lantern by remote write (in time order,
 * acknowledged after commit). Then, one system after the other, `query_range` at Grafana's default
 * steps (1 h: 15 s, 24 h: 60 s, what Grafana picks for a ~1,200 px panel with the default 15 s
 * scrape interval): `sum by (job) (rate(bench_requests_total[5m]))` and
 * `histogram_quantile(0.99, sum by (le) (rate(bench_latency_seconds_bucket[5m])))`; p50 and p95 of
 * `--runs` after one warm-up. The machine's load average is printed (it is shared).
 *
 * `--keep DIR` keeps both stores in DIR: the first run loads them, later runs (same `--series` and
 * `--hours`) only query them, with "now" the first run's (loading takes most of a run's time).
 *
 *   node --import tsx bench/promql/run.ts [--series 10000] [--hours 24] [--runs 10] [--minutes-per-request 5] [--keep DIR]
 */
const { values: args } = parseArgs({
  options: {
    series: { type: 'string', default: '10000' },
    hours: { type: 'string', default: '24' },
    runs: { type: 'string', default: '10' },
    'minutes-per-request': { type: 'string', default: '5' },
    keep: { type: 'string' },
  },
});
const SERIES = Number(args.series);
const MINUTES = Number(args.hours) * 60;
const RUNS = Number(args.runs);
const PER_REQUEST = Number(args['minutes-per-request']);
const HIST_INSTANCES = Math.max(1, Math.round(SERIES / 100));
const COUNTERS = SERIES - HIST_INSTANCES * 10;
const LES = ['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '+Inf'];
const run = promisify(execFile);

const KEPT = args.keep ? join(args.keep, 'loaded.json') : null;
const kept =
  KEPT && existsSync(KEPT)
    ? (JSON.parse(readFileSync(KEPT, 'utf8')) as { now: number; series: number; minutes: number })
    : null;
if (kept && (kept.series !== SERIES || kept.minutes !== MINUTES))
  throw new Error(
    `${args.keep} holds ${kept.series} series over ${kept.minutes} minutes: use those or another directory`,
  );
const now = kept?.now ?? Math.floor(Date.now() / 60_000) * 60_000;
const start = now - MINUTES * 60_000;
const sampleMs = (k: number) => start + k * 60_000 + 30_000;

interface Series {
  labels: [string, string][];
  value: (k: number) => number;
}
function series(): Series[] {
  const out: Series[] = [];
  for (let h = 0; h < HIST_INSTANCES; h++) {
    const per = LES.map((_, b) => 1 + ((h * 7 + b * 3) % 5));
    let cum = 0;
    LES.forEach((le, b) => {
      cum += per[b];
      const c = cum;
      out.push({
        labels: [
          ['__name__', 'bench_latency_seconds_bucket'],
          ['instance', `h${h}`],
          ['job', `job${h % 10}`],
          ['le', le],
        ],
        value: (k) => k * c + Math.floor(k / 7) * (b + 1),
      });
    });
  }
  for (let i = 0; i < COUNTERS; i++)
    out.push({
      labels: [
        ['__name__', 'bench_requests_total'],
        ['instance', `i${i}`],
        ['job', `job${i % 10}`],
      ],
      value: (k) => k * (1 + (i % 13)) + ((k * (i + 3)) % 7),
    });
  return out;
}

async function writeOpenMetrics(path: string, all: Series[]): Promise<void> {
  const out = createWriteStream(path);
  const write = (s: string) => (out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', r)));
  for (const s of all) {
    const name = s.labels[0][1];
    const labels = s.labels
      .slice(1)
      .map(([k, v]) => `${k}="${v}"`)
      .join(',');
    let chunk = '';
    for (let k = 0; k < MINUTES; k++) chunk += `${name}{${labels}} ${s.value(k)} ${sampleMs(k) / 1000}\n`;
    await write(chunk);
  }
  await write('# EOF\n');
  await new Promise<void>((r) => out.end(r));
}

async function remoteWrite(baseUrl: string, all: Series[]): Promise<void> {
  for (let k0 = 0; k0 < MINUTES; k0 += PER_REQUEST) {
    const body: PromSeries[] = all.map((s) => {
      const samples = [];
      for (let k = k0; k < Math.min(MINUTES, k0 + PER_REQUEST); k++)
        samples.push({ value: s.value(k), timestampMs: sampleMs(k) });
      return { labels: s.labels, samples };
    });
    const res = await fetch(`${baseUrl}/api/v1/prometheus/write`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${PROJECT1_TOKEN}`,
        'content-encoding': 'snappy',
        'content-type': 'application/x-protobuf',
      },
      body: snappyLiteral(encodeWriteRequest(body)),
    });
    if (res.status !== 204) throw new Error(`remote write: ${res.status} ${await res.text()}`);
  }
}

const QUERIES = {
  'sum by (job) (rate(x[5m]))': 'sum by (job) (rate(bench_requests_total[5m]))',
  'histogram_quantile(0.99, sum by (le) (rate(x_bucket[5m])))':
    'histogram_quantile(0.99, sum by (le) (rate(bench_latency_seconds_bucket[5m])))',
};
const RANGES = [
  { name: '1 h', ms: 3_600_000, step: 15 },
  { name: '24 h', ms: 86_400_000, step: 60 },
];

async function timeQueries(url: string, headers: Record<string, string>): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = {};
  for (const [label, query] of Object.entries(QUERIES))
    for (const r of RANGES) {
      // Grafana aligns start and end to the step.
      const end = Math.floor((now - 60_000) / 1000 / r.step) * r.step;
      const params = new URLSearchParams({
        query,
        start: String(end - r.ms / 1000),
        end: String(end),
        step: String(r.step),
      });
      const times: number[] = [];
      for (let i = 0; i <= RUNS; i++) {
        const t0 = performance.now();
        const res = await fetch(`${url}/api/v1/query_range`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          body: params,
        });
        const body = (await res.json()) as { status: string; error?: string; data?: { result: unknown[] } };
        if (body.status !== 'success') throw new Error(`${url} ${query}: ${body.error}`);
        if (i > 0) times.push(performance.now() - t0);
        if (i === 0 && body.data!.result.length === 0) throw new Error(`${url} ${query}: no series`);
      }
      out[`${label} over ${r.name} (step ${r.step}s)`] = times;
    }
  return out;
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const loadAvg = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

/** Loads both stores: Lantern by remote write, Prometheus by promtool's backfill into `dir`/data. */
async function load(lanternUrl: string, dir: string): Promise<void> {
  const all = series();
  console.log(
    `${all.length} series, ${MINUTES} minutes, ${(all.length * MINUTES).toLocaleString()} samples; load ${loadAvg()}`,
  );
  let t0 = performance.now();
  await remoteWrite(lanternUrl, all);
  const lanternIngest = (performance.now() - t0) / 1000;
  console.log(
    `Lantern remote write: ${lanternIngest.toFixed(1)} s, ${Math.round((all.length * MINUTES) / lanternIngest).toLocaleString()} samples/s; load ${loadAvg()}`,
  );
  t0 = performance.now();
  await writeOpenMetrics(join(dir, 'samples.om'), all);
  await run(PROMTOOL, ['tsdb', 'create-blocks-from', 'openmetrics', '-q', join(dir, 'samples.om'), join(dir, 'data')], {
    maxBuffer: 1 << 26,
  });
  rmSync(join(dir, 'samples.om'));
  console.log(`Prometheus backfill (promtool): ${((performance.now() - t0) / 1000).toFixed(1)} s; load ${loadAvg()}`);
}

async function main(): Promise<void> {
  if (args.keep) mkdirSync(join(args.keep, 'lantern'), { recursive: true });
  const dir = args.keep ?? mkdtempSync(join(tmpdir(), 'lantern-bench-promql-'));
  const lantern = await startLantern(args.keep ? { dataDir: join(args.keep, 'lantern') } : {});
  let prom: ReturnType<typeof spawn> | undefined;
  try {
    if (kept) console.log(`Kept stores of ${new Date(now).toISOString()} in ${args.keep}; load ${loadAvg()}`);
    else {
      await load(lantern.baseUrl, dir);
      if (KEPT) writeFileSync(KEPT, JSON.stringify({ now, series: SERIES, minutes: MINUTES }));
    }
    writeFileSync(join(dir, 'prometheus.yml'), 'global: { scrape_interval: 60s }\n');
    const port = await freePort();
    prom = spawn(
      PROMETHEUS,
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        '--storage.tsdb.retention.time=30d',
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: 'ignore' },
    );
    const promUrl = `http://127.0.0.1:${port}`;
    while (
      !(await fetch(`${promUrl}/-/ready`).then(
        (r) => r.ok,
        () => false,
      ))
    )
      await new Promise((r) => setTimeout(r, 200));

    // One system after the other, then again in the other order: the load of a shared machine
    // changes over minutes, and both orders show how much of a difference is the machine's.
    const lanternUrl = `${lantern.baseUrl}/api/prometheus`;
    const auth = { authorization: `Bearer ${PROJECT1_TOKEN}` };
    const lanternTimes = await timeQueries(lanternUrl, auth);
    console.log(`Lantern queries done; load ${loadAvg()}`);
    const promTimes = await timeQueries(promUrl, {});
    console.log(`Prometheus queries done; load ${loadAvg()}`);
    const promTimes2 = await timeQueries(promUrl, {});
    const lanternTimes2 = await timeQueries(lanternUrl, auth);
    console.log(`Both again, in the other order; load ${loadAvg()}`);
    console.log(
      '\n| query | Lantern p50 (p95) | Prometheus 2.42 p50 (p95) | ratio of p50s |\n| --- | --- | --- | --- |',
    );
    for (const k of Object.keys(lanternTimes)) {
      const l = [...lanternTimes[k], ...lanternTimes2[k]];
      const p = [...promTimes[k], ...promTimes2[k]];
      console.log(
        `| ${k} | ${pct(l, 0.5).toFixed(0)} ms (${pct(l, 0.95).toFixed(0)}) | ${pct(p, 0.5).toFixed(0)} ms (${pct(p, 0.95).toFixed(0)}) | ${(pct(l, 0.5) / pct(p, 0.5)).toFixed(2)} |`,
      );
    }
  } finally {
    prom?.kill('SIGTERM');
    await lantern.stop();
    if (!args.keep) {
      removeDataDir(lantern.dataDir);
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

await main();
