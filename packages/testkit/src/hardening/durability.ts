import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_METRICS_FROM_SPANS } from '../../../server/src/metricsFromSpans';
import { freePort, PROJECT1_TOKEN, startLantern, tempDataDir, type RunningLantern } from '../harness';
import { findLost, type Acked, type Lost } from './ackCheck';
import { DERIVED_ROWS_METRIC, storedTraceRowCounts } from './storeCounts';
import { buildRequest, isMetricsKind, REQUEST_KINDS, rng, send, type RequestKind } from './traffic';

/**
 * Durability under SIGKILL: in each trial the server (re)starts on the same data directory,
 * clients send on every ingest path, and the server is killed at a random moment. Afterwards every
 * request that was answered with success must have all its rows in storage (both span tables, or
 * every sample of an OTLP metrics or remote write request, exactly once: the datapoints are folded
 * and journaled before the engine, docs/decisions/metrics-ingest-fold.md),
 * and counted in the metrics derived from spans: besides the built-in ones, the server runs with a
 * counter of rows per trace id (`metrics_from_spans`, written by the same views in the same
 * commit), so each acknowledged request's datapoints can be looked up too.
 */
export interface DurabilityOptions {
  trials: number;
  clients: number;
  /**
   * The kill comes uniformly between these many ms after the trial's first acknowledged request
   * (so a slow start on a busy machine does not leave a trial with nothing acknowledged).
   */
  killAfterMs: [number, number];
  rowsPerRequest: number;
  /** Samples per metrics request (OTLP metrics and Prometheus remote write); default rowsPerRequest. */
  samplesPerMetricsRequest?: number;
  seed: number;
  /** Reuse this directory (else a fresh temp one); the caller removes it. */
  dataDir?: string;
  onTrial?(trial: number, ackedSoFar: number): void;
}

export interface DurabilityResult {
  dataDir: string;
  trials: number;
  ackedRequests: number;
  ackedRows: number;
  /** Of the acknowledged requests, the OTLP metrics and remote write ones. */
  ackedMetricsRequests: number;
  /** Of those, the remote write ones. */
  ackedPromRequests: number;
  /** Requests answered with something else than success (429/503/4xx) or cut by the kill. */
  notAcked: number;
  lost: Lost[];
}

export async function runDurability(opts: DurabilityOptions): Promise<DurabilityResult> {
  const random = rng(opts.seed);
  const dataDir = opts.dataDir ?? tempDataDir();
  const httpPort = await freePort();
  const grpcPort = await freePort();
  const acked: Acked[] = [];
  let notAcked = 0;
  const configFile = join(dataDir, 'durability.yml');
  const perTrace = { name: DERIVED_ROWS_METRIC, instrument: 'counter', value: '1', attrs: ['.trace_id'] };
  // JSON is YAML.
  writeFileSync(configFile, JSON.stringify({ metrics_from_spans: [...DEFAULT_METRICS_FROM_SPANS, perTrace] }));
  // Every path of REQUEST_KINDS, and Prometheus remote write.
  const kinds: RequestKind[] = [...REQUEST_KINDS, 'prom-write'];
  for (let trial = 0; trial < opts.trials; trial++) {
    const lantern: RunningLantern = await startLantern({
      dataDir,
      httpPort,
      grpcPort,
      env: { LANTERN_CONFIG: configFile, LANTERN_INGEST_FLUSH_INTERVAL_MS: '50' },
      ingestWorkers: 'default',
    });
    let stop = false;
    const client = async (c: number) => {
      for (let seq = 0; !stop; seq++) {
        const kind = kinds[(c + seq) % kinds.length];
        const traceId =
          trial.toString(16).padStart(4, '0') +
          c.toString(16).padStart(4, '0') +
          (seq + 1).toString(16).padStart(24, '0');
        const size = isMetricsKind(kind) ? (opts.samplesPerMetricsRequest ?? opts.rowsPerRequest) : opts.rowsPerRequest;
        const req = buildRequest(kind, traceId, size, PROJECT1_TOKEN);
        const res = await send(lantern.baseUrl, req);
        if (res.status === 200 || res.status === 202 || res.status === 204)
          acked.push({ traceId, rows: req.rows, metrics: isMetricsKind(kind), prom: kind === 'prom-write' });
        else notAcked++;
        if (res.status === 0) return; // the server is gone
      }
    };
    const clients = Array.from({ length: opts.clients }, (_, c) => client(c));
    const within = <T>(what: string, ms: number, p: Promise<T>) =>
      deadline(`trial ${trial}: ${what}`, ms, p, () => {
        stop = true;
        lantern.process.kill('SIGKILL');
        return lantern.output();
      });
    const ackedBefore = acked.length;
    for (const deadline = Date.now() + 60_000; acked.length === ackedBefore && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const [lo, hi] = opts.killAfterMs;
    await new Promise((r) => setTimeout(r, lo + random() * (hi - lo)));
    await within('the kill and the store stopping', 60_000, lantern.kill());
    stop = true;
    // Each request is bounded by send's own 30 s timeout.
    await within('the clients after the kill', 60_000, Promise.all(clients));
    opts.onTrial?.(trial, acked.length);
  }
  const stored = await deadline('reading the stored rows', 180_000, storedTraceRowCounts(dataDir), () => '');
  return {
    dataDir,
    trials: opts.trials,
    ackedRequests: acked.length,
    ackedRows: acked.reduce((n, a) => n + a.rows, 0),
    ackedMetricsRequests: acked.filter((a) => a.metrics).length,
    ackedPromRequests: acked.filter((a) => a.prom).length,
    notAcked,
    lost: findLost(acked, stored, { derived: true }),
  };
}

/**
 * `p`, or an error naming the step, with the server's last output, once `ms` pass: a step that never
 * ends fails the run with what it was doing instead of holding it until the test's timeout.
 */
async function deadline<T>(what: string, ms: number, p: Promise<T>, onTimeout: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const output = onTimeout();
      reject(
        new Error(
          `durability: ${what} took over ${ms} ms${output ? `; the server's last output:\n${output.slice(-4000)}` : ''}`,
        ),
      );
    }, ms);
  });
  try {
    return await Promise.race([p, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
