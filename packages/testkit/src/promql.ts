import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { encodeWriteRequest, snappyLiteral, type PromSeries } from '../../../bench/metrics/remoteWrite';
import { freePort } from './ports';

/**
 * The same samples in a real Prometheus and in Lantern, the way the PromQL compliance tester
 * compares them: the samples are written as OpenMetrics and backfilled into a new Prometheus TSDB
 * with `promtool tsdb create-blocks-from openmetrics`, and remote-written into Lantern with the same
 * timestamps. Both then hold hours of identical data within seconds, without waiting for real
 * minutes. Debian's prometheus and promtool (2.42) are installed by scripts/ensure.mjs.
 */
export const PROMETHEUS = '/usr/bin/prometheus';
export const PROMTOOL = '/usr/bin/promtool';

const run = promisify(execFile);

/** One series: its labels (with `__name__`) and a value per sample time. */
export interface SampleSeries {
  labels: Record<string, string>;
  values: (k: number) => number;
}

export interface Samples {
  series: SampleSeries[];
  /** Sample k is at `startMs + k * 60 s + offsetMs`. */
  startMs: number;
  count: number;
  offsetMs: number;
}

export const sampleTime = (s: Samples, k: number): number => s.startMs + k * 60_000 + s.offsetMs;

/** Go's float formatting for the exposition (integers without a point, NaN and infinities by name). */
function fmt(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** The samples as an OpenMetrics text (untyped families, timestamps in seconds), ordered by time per series. */
export function openMetricsText(s: Samples): string {
  const lines: string[] = [];
  // A family's samples must be together: series sorted by name.
  const series = [...s.series].sort((a, b) =>
    a.labels.__name__ < b.labels.__name__ ? -1 : a.labels.__name__ > b.labels.__name__ ? 1 : 0,
  );
  for (const ser of series) {
    const { __name__: name, ...rest } = ser.labels;
    const labels = Object.entries(rest)
      .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
      .join(',');
    for (let k = 0; k < s.count; k++)
      lines.push(`${name}${labels ? `{${labels}}` : ''} ${fmt(ser.values(k))} ${(sampleTime(s, k) / 1000).toFixed(3)}`);
  }
  lines.push('# EOF', '');
  return lines.join('\n');
}

export interface BackfilledPrometheus {
  url: string;
  process: ChildProcess;
  dir: string;
  output(): string;
  stop(): Promise<void>;
}

/** Backfills the samples into a new TSDB and starts Prometheus on it (no scraping). */
export async function startBackfilledPrometheus(s: Samples): Promise<BackfilledPrometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-promql-'));
  const data = join(dir, 'data');
  writeFileSync(join(dir, 'samples.om'), openMetricsText(s));
  writeFileSync(join(dir, 'prometheus.yml'), 'global: { scrape_interval: 60s }\n');
  await run(PROMTOOL, ['tsdb', 'create-blocks-from', 'openmetrics', '-q', join(dir, 'samples.om'), data], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const port = await freePort();
  const proc = spawn(
    PROMETHEUS,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${data}`,
      '--storage.tsdb.retention.time=30d',
      `--web.listen-address=127.0.0.1:${port}`,
      '--query.max-samples=100000000',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  proc.stdout.on('data', (d) => (out += d));
  proc.stderr.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`Prometheus exited:\n${out}`);
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > until) throw new Error(`Prometheus not ready in 60 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    process: proc,
    dir,
    output: () => out,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Remote-writes the samples into Lantern in time order, `minutesPerRequest` sample times of every
 * series per request (a histogram's buckets, sum and count travel together, as Prometheus sends
 * them, so Lantern knows `_sum`/`_count` as counters).
 */
export async function remoteWriteSamples(
  baseUrl: string,
  token: string,
  s: Samples,
  minutesPerRequest = 30,
): Promise<void> {
  for (let k0 = 0; k0 < s.count; k0 += minutesPerRequest) {
    const series: PromSeries[] = s.series.map((ser) => {
      const samples = [];
      for (let k = k0; k < Math.min(s.count, k0 + minutesPerRequest); k++)
        samples.push({ value: ser.values(k), timestampMs: sampleTime(s, k) });
      return { labels: Object.entries(ser.labels), samples };
    });
    const res = await fetch(`${baseUrl}/api/v1/prometheus/write`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-encoding': 'snappy',
        'content-type': 'application/x-protobuf',
        'x-prometheus-remote-write-version': '0.1.0',
      },
      body: new Uint8Array(snappyLiteral(encodeWriteRequest(series))),
    });
    if (res.status !== 204 && res.status !== 200)
      throw new Error(`remote write answered ${res.status}: ${await res.text()}`);
  }
}

/** A Prometheus API GET (JSON), with optional headers. */
export async function promGet(
  base: string,
  path: string,
  params: Record<string, string | string[]>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: PromAnswer }> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const x of [v].flat()) q.append(k, x);
  const res = await fetch(`${base}${path}?${q}`, { headers });
  return { status: res.status, body: (await res.json()) as PromAnswer };
}

export interface PromAnswer {
  status: 'success' | 'error';
  data?: { resultType: string; result: unknown };
  errorType?: string;
  error?: string;
  warnings?: string[];
}

export interface MatrixSeries {
  metric: Record<string, string>;
  values: [number, string][];
}

/**
 * Differences between two matrices, series by series (matched by label set): missing or extra
 * series, missing or extra points, and values further apart than `tolerance` (relative, with an
 * absolute floor for values near 0). Empty when they agree.
 */
export function compareMatrices(want: MatrixSeries[], got: MatrixSeries[], tolerance = 1e-6): string[] {
  const key = (m: Record<string, string>) => JSON.stringify(Object.entries(m).sort());
  const problems: string[] = [];
  const gotBy = new Map(got.map((s) => [key(s.metric), s]));
  const wantBy = new Map(want.map((s) => [key(s.metric), s]));
  for (const [k, w] of wantBy) {
    const g = gotBy.get(k);
    if (!g) {
      problems.push(`missing series ${k}`);
      continue;
    }
    const gv = new Map(g.values.map(([t, v]) => [t, v]));
    const wv = new Map(w.values.map(([t, v]) => [t, v]));
    for (const [t, v] of wv) {
      const x = gv.get(t);
      if (x === undefined) problems.push(`${k} @${t}: missing (Prometheus ${v})`);
      else if (!close(Number(v), Number(x), tolerance)) problems.push(`${k} @${t}: Prometheus ${v}, Lantern ${x}`);
    }
    for (const [t, x] of gv) if (!wv.has(t)) problems.push(`${k} @${t}: extra point ${x}`);
  }
  for (const k of gotBy.keys()) if (!wantBy.has(k)) problems.push(`extra series ${k}`);
  return problems;
}

function close(a: number, b: number, tolerance: number): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  if (!Number.isFinite(a) || !Number.isFinite(b)) return a === b;
  return Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(a), Math.abs(b));
}
