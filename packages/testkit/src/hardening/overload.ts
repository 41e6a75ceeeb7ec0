import { PROJECT1_TOKEN, startLantern, type RunningLantern } from '../harness';
import { findLost, type Acked, type Lost } from './ackCheck';
import { watchRss } from './procRss';
import { storedTraceRowCounts } from './storeCounts';
import { RequestFactory, send, type RequestKind } from './traffic';

/**
 * Backpressure under overload: first the sustainable rate is measured (closed loop: clients send
 * as fast as they are answered), then requests are offered open loop at `multiplier` times that
 * rate for `seconds`. The server must keep answering (success, or 429 + Retry-After for what it
 * cannot take), its RSS is sampled for the peak, and after a graceful stop every acknowledged
 * request must be in storage.
 */
/** Closed-loop traffic before the calibration starts counting. */
const WARMUP_SECONDS = 3;

export interface OverloadOptions {
  seconds: number;
  calibrateSeconds: number;
  calibrateClients: number;
  multiplier: number;
  rowsPerRequest: number;
  /** Requests in flight at most (the open-loop sender's own cap). */
  maxInFlight: number;
  kinds: RequestKind[];
  env?: Record<string, string>;
}

export interface OverloadResult {
  sustainableRowsPerSec: number;
  offeredRowsPerSec: number;
  acceptedRowsPerSec: number;
  statuses: Record<string, number>;
  /** 429 answers that carried Retry-After / all 429 answers. */
  retryAfterShare: number;
  /** Requests the sender could not start because maxInFlight were outstanding. */
  skippedBySender: number;
  p50Ms: number;
  p99Ms: number;
  peakRssBytes: number;
  ackedRequests: number;
  lost: Lost[];
  dataDir: string;
}

export async function runOverload(opts: OverloadOptions): Promise<OverloadResult> {
  const lantern: RunningLantern = await startLantern({ env: opts.env ?? {}, ingestWorkers: 'default' });
  const rss = watchRss(lantern.process.pid!);
  const acked: Acked[] = [];
  let seq = 0;
  const factory = new RequestFactory(opts.rowsPerRequest, PROJECT1_TOKEN);
  const nextRequest = () => {
    const n = seq++;
    return factory.next(opts.kinds[n % opts.kinds.length], 'fe' + n.toString(16).padStart(30, '0'));
  };

  // Calibration: closed loop with enough clients to fill batches (group commit makes one client
  // wait a flush interval per request, so few clients would measure latency, not capacity).
  // The first seconds are not counted: a fresh server is still warming its workers (JIT, the
  // metrics job), and a rate measured then is an under-estimate that 3x would not overload.
  let calibrated = 0;
  const warmEnd = Date.now() + WARMUP_SECONDS * 1000;
  const calEnd = warmEnd + opts.calibrateSeconds * 1000;
  await Promise.all(
    Array.from({ length: opts.calibrateClients }, async () => {
      while (Date.now() < calEnd) {
        const req = nextRequest();
        const started = Date.now();
        const res = await send(lantern.baseUrl, req);
        if (res.status === 200 || res.status === 202) {
          acked.push({ traceId: req.traceId, rows: req.rows, metrics: req.kind === 'metrics-proto' });
          if (started >= warmEnd) calibrated += req.rows;
        }
      }
    }),
  );
  const sustainable = calibrated / opts.calibrateSeconds;
  const offered = sustainable * opts.multiplier;

  // Overload: open loop at `offered` rows/s.
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  let retryAfter429 = 0;
  let skipped = 0;
  let inFlight = 0;
  let acceptedRows = 0;
  const pending = new Set<Promise<void>>();
  const started = Date.now();
  const end = started + opts.seconds * 1000;
  let due = 0;
  while (Date.now() < end) {
    const elapsed = (Date.now() - started) / 1000;
    const shouldHaveSent = Math.floor((elapsed * offered) / opts.rowsPerRequest);
    while (due < shouldHaveSent) {
      due++;
      if (inFlight >= opts.maxInFlight) {
        skipped++;
        continue;
      }
      const req = nextRequest();
      inFlight++;
      const p = send(lantern.baseUrl, req).then((res) => {
        inFlight--;
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status === 200 || res.status === 202) {
          acked.push({ traceId: req.traceId, rows: req.rows, metrics: req.kind === 'metrics-proto' });
          acceptedRows += req.rows;
          latencies.push(res.latencyMs);
        } else if (res.status === 429 && res.retryAfter) retryAfter429++;
      });
      pending.add(p);
      void p.then(() => pending.delete(p));
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  await Promise.all(pending);
  const duration = (Date.now() - started) / 1000;
  const peakRssBytes = rss.stop();
  await lantern.stop();
  const stored = await storedTraceRowCounts(lantern.dataDir);
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] : 0;
  return {
    sustainableRowsPerSec: Math.round(sustainable),
    offeredRowsPerSec: Math.round(offered),
    acceptedRowsPerSec: Math.round(acceptedRows / duration),
    statuses,
    retryAfterShare: statuses[429] ? retryAfter429 / statuses[429] : 1,
    skippedBySender: skipped,
    p50Ms: Math.round(pct(0.5)),
    p99Ms: Math.round(pct(0.99)),
    peakRssBytes,
    ackedRequests: acked.length,
    lost: findLost(acked, stored),
    dataDir: lantern.dataDir,
  };
}
