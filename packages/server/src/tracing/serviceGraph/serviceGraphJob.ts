import type { Logger } from 'pino';
import { param, sql } from '../../storage/sql';
import type { TelemetryStore } from '../../storage/telemetry';
import { pairingSql } from './pairingSql';

/**
 * Writes the service graph's minutes (pairingSql.ts) once per closed window, on the node that
 * holds the evaluator lease (alerting runs it as one of its leader jobs).
 *
 * A window (a minute of span time) is written on every run from the first while it is open until
 * its wait has passed (`waitMs` after its end), so the halves of a call that arrive late (another
 * export, batch or node) replace the provisional rows, and a new service shows within a run; the
 * run after that is its last (`final`). Each run writes all its windows' rows under a new run number and then records the
 * windows in `service_graph_runs`; readers take each minute's rows of its latest recorded run. So a
 * run cut short (a crash, a lost lease) leaves rows nobody reads, and running a window again
 * replaces it: nothing is counted twice (docs/architecture.md, "Service graph").
 */
export interface ServiceGraphJobOptions {
  telemetry: TelemetryStore;
  log: Logger;
  /** How long a client span waits for its server half before it becomes an edge to a virtual node. */
  waitMs: number;
  /** Span time before the first run's start that a new database gets its graph for. */
  backfillMs?: number;
  /** Most windows written by one run (a run catching up after a stop writes these, the next run more). */
  maxWindows?: number;
}

const MINUTE = 60_000;
const DEFAULT_BACKFILL_MS = 60 * MINUTE;
const DEFAULT_MAX_WINDOWS = 60;

export interface ServiceGraphRun {
  /** Windows written, [from, to); null when none was due. */
  from: Date | null;
  to: Date | null;
  run: bigint;
  final: number;
}

export function createServiceGraphJob(opts: ServiceGraphJobOptions) {
  const backfill = opts.backfillMs ?? DEFAULT_BACKFILL_MS;
  const maxWindows = opts.maxWindows ?? DEFAULT_MAX_WINDOWS;

  /** The first window not yet final, and a run number above every run so far (written or cut short). */
  async function state(now: Date): Promise<{ start: Date; run: bigint }> {
    const [runs] = await opts.telemetry.query<{ last_final: number; has_final: number; run: string }>(
      sql`SELECT toUnixTimestamp(maxIf(time, final = 1)) AS last_final, countIf(final = 1) > 0 AS has_final,
          toString(max(run)) AS run
        FROM service_graph_runs`,
    );
    const start = runs?.has_final
      ? new Date(Number(runs.last_final) * 1000 + MINUTE)
      : new Date(Math.floor((now.getTime() - backfill) / MINUTE) * MINUTE);
    // Rows of a run cut short before its windows were recorded are in no runs row: the number
    // must pass them too, or the next run's rows would be read together with them.
    const [written] = await opts.telemetry.query<{ run: string }>(
      sql`SELECT toString(max(run)) AS run FROM service_graph_minutes WHERE time >= ${param.secondsUp(start)}`,
    );
    const last = [runs?.run, written?.run].reduce((m, r) => (r && BigInt(r) > m ? BigInt(r) : m), 0n);
    const clock = BigInt(now.getTime());
    return { start, run: clock > last ? clock : last + 1n };
  }

  /**
   * Writes every window from the first one not final up to the current one (still open: written
   * as far as it goes, like the ones within their wait), at most `maxWindows` of them.
   */
  async function run(now: Date): Promise<ServiceGraphRun> {
    const { start, run } = await state(now);
    const current = Math.floor(now.getTime() / MINUTE) * MINUTE + MINUTE;
    const end = Math.min(current, start.getTime() + maxWindows * MINUTE);
    if (end <= start.getTime()) return { from: null, to: null, run, final: 0 };
    const from = start;
    const to = new Date(end);
    await opts.telemetry.command(pairingSql({ from, to, run, expiredBefore: new Date(now.getTime() - opts.waitMs) }));
    // A window is final once its last client span has waited its full wait.
    const lastFinal = Math.floor((now.getTime() - opts.waitMs - MINUTE) / MINUTE) * MINUTE;
    const minutes = (end - from.getTime()) / MINUTE;
    await opts.telemetry.command(
      sql`INSERT INTO service_graph_runs (time, run, final)
        SELECT t, ${param.uint64(run)}, t <= ${param.secondsUp(new Date(lastFinal))}
        FROM (SELECT ${param.secondsUp(from)} + INTERVAL number MINUTE AS t FROM numbers(${param.uint32(minutes)}))`,
    );
    const final = Math.max(0, Math.min(minutes, (lastFinal - from.getTime()) / MINUTE + 1));
    opts.log.info(
      { from: from.toISOString(), to: to.toISOString(), run: run.toString(), final },
      'service graph: windows written',
    );
    return { from, to, run, final };
  }

  return { run };
}

export type ServiceGraphJob = ReturnType<typeof createServiceGraphJob>;
