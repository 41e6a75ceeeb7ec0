import type { Logger } from 'pino';
import { param, sql } from '../../storage/sql';
import type { TelemetryStore } from '../../storage/telemetry';
import { PAIR_SLACK_MS, pairingSql } from './pairingSql';

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
 * replaces it: nothing is counted twice (docs/architecture.md, "Service graph"). Spans that come
 * after a window is final (hours late) change its span count, and the window is written again.
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
  /** Projects whose services are split by `deployment.environment` (`group_by_env`). */
  envProjects?: readonly number[];
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DEFAULT_BACKFILL_MS = 60 * MINUTE;
const DEFAULT_MAX_WINDOWS = 60;
/**
 * How far back final windows are checked for spans that came after their wait (a count of spans
 * per minute against the count each window was written with: one read of the time column).
 */
const LATE_LOOKBACK_MS = 6 * 60 * MINUTE;

export interface ServiceGraphRun {
  /** Windows written, [from, to); null when none was due. */
  from: Date | null;
  to: Date | null;
  run: bigint;
  final: number;
  /** Final windows written again because their spans changed (late spans), with their slack. */
  late: number;
  /** Hours folded into their hour rows. */
  hours: number;
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

  /** Spans per minute in [from, to) (spans only: events and logs pair nothing). */
  async function spanCounts(from: number, to: number): Promise<Map<number, number>> {
    const rows = await opts.telemetry.query<{ m: number; n: string }>(
      sql`SELECT toUnixTimestamp(toStartOfMinute(time)) AS m, toString(count()) AS n FROM spans_index
        WHERE time >= ${param.time(new Date(from))} AND time < ${param.time(new Date(to))} AND event_name = ''
        GROUP BY m`,
    );
    return new Map(rows.map((r) => [Number(r.m) * 1000, Number(r.n)]));
  }

  /**
   * Final windows of the last LATE_LOOKBACK_MS whose spans changed since their last run (spans
   * that came after the wait: an exporter hours late, demo data dated in the past), each widened
   * by the pairing slack: a late server half pairs with a client in the minutes before.
   */
  async function lateWindows(now: Date, start: number): Promise<[number, number][]> {
    const lookFrom = Math.max(
      start - LATE_LOOKBACK_MS,
      Math.floor((now.getTime() - LATE_LOOKBACK_MS) / MINUTE) * MINUTE,
    );
    if (lookFrom >= start) return [];
    const [counts, recorded] = await Promise.all([
      spanCounts(lookFrom, start),
      opts.telemetry.query<{ m: number; n: string }>(
        sql`SELECT toUnixTimestamp(time) AS m, toString(argMax(spans, run)) AS n FROM service_graph_runs
          WHERE time >= ${param.secondsUp(new Date(lookFrom))} AND time < ${param.secondsUp(new Date(start))}
          GROUP BY time`,
      ),
    ]);
    const was = new Map(recorded.map((r) => [Number(r.m) * 1000, Number(r.n)]));
    const slack = Math.ceil(PAIR_SLACK_MS / MINUTE) * MINUTE;
    const ranges: [number, number][] = [];
    for (const m of [...counts.keys()].sort((x, y) => x - y)) {
      if (counts.get(m) === (was.get(m) ?? 0)) continue;
      const from = Math.max(lookFrom, m - slack);
      const to = Math.min(start, m + MINUTE + slack);
      const last = ranges[ranges.length - 1];
      if (last && from <= last[1]) last[1] = Math.max(last[1], to);
      else ranges.push([from, to]);
    }
    return ranges;
  }

  /**
   * Writes [from, to) under `run` and records it: the span counts first (a span stored after the
   * count is in the rows, and makes the next run see the window as changed, which rewrites it),
   * the rows, then the record that makes them the window's rows.
   */
  async function write(from: number, to: number, run: bigint, now: Date, lastFinal: number): Promise<void> {
    const counts = await spanCounts(from, to);
    await opts.telemetry.command(
      pairingSql({
        from: new Date(from),
        to: new Date(to),
        run,
        expiredBefore: new Date(now.getTime() - opts.waitMs),
        envProjects: opts.envProjects,
      }),
    );
    const minutes = Array.from({ length: (to - from) / MINUTE }, (_, i) => from + i * MINUTE);
    await opts.telemetry.command(
      sql`INSERT INTO service_graph_runs (time, run, final, spans)
        SELECT toDateTime(t.1, 'UTC'), ${param.uint64(run)}, t.1 <= ${param.uint32(lastFinal / 1000)}, t.2
        FROM (SELECT arrayJoin(arrayZip(${param.uint32s(minutes.map((m) => m / 1000))}, ${param.uint32s(
          minutes.map((m) => counts.get(m) ?? 0),
        )})) AS t)`,
    );
  }

  /**
   * Folds each hour whose 60 minutes are final and whose latest minute run is newer than its own
   * (new, rewritten for late spans, or left behind by a run cut short) into its hour rows, under
   * `run`, then records them: readers take whole hours from there (serviceGraph.service.ts).
   */
  async function rollHours(run: bigint, checkFrom: number): Promise<number> {
    const from = param.secondsUp(new Date(Math.floor(checkFrom / HOUR) * HOUR));
    const due = await opts.telemetry.query<{ h: number }>(
      sql`SELECT toUnixTimestamp(m.h) AS h FROM (
          SELECT toStartOfHour(time) AS h, max(run) AS minute_run, uniqExactIf(time, final = 1) AS final_minutes
          FROM service_graph_runs WHERE time >= ${from} GROUP BY h) AS m
        LEFT JOIN (
          SELECT time AS h, max(run) AS hour_run FROM service_graph_hour_runs WHERE time >= ${from} GROUP BY time) AS r
        ON r.h = m.h
        WHERE m.final_minutes = 60 AND m.minute_run > r.hour_run
        ORDER BY h`,
    );
    if (due.length === 0) return 0;
    const hours = due.map((d) => Number(d.h));
    const lo = param.secondsUp(new Date(hours[0] * 1000));
    const hi = param.secondsUp(new Date(hours[hours.length - 1] * 1000 + HOUR));
    await opts.telemetry.command(
      sql`INSERT INTO service_graph_hours
          (project_id, time, run, row_type, client, server, server_type, connection_type, calls, errors, duration)
        SELECT project_id, toStartOfHour(time) AS h, ${param.uint64(run)}, row_type, client, server, server_type, connection_type,
          sum(calls), sum(errors), quantilesTDigestMergeState(0.5, 0.99)(duration)
        FROM service_graph_minutes
        WHERE time >= ${lo} AND time < ${hi} AND toUnixTimestamp(toStartOfHour(time)) IN ${param.uint32s(hours)}
          AND (time, run) GLOBAL IN (
            SELECT time, max(run) FROM service_graph_runs WHERE time >= ${lo} AND time < ${hi} GROUP BY time)
        GROUP BY project_id, h, row_type, client, server, server_type, connection_type`,
    );
    await opts.telemetry.command(
      sql`INSERT INTO service_graph_hour_runs (time, run)
        SELECT toDateTime(h, 'UTC'), ${param.uint64(run)} FROM (SELECT arrayJoin(${param.uint32s(hours)}) AS h)`,
    );
    return hours.length;
  }

  /**
   * Writes every window from the first one not final up to the current one (still open: written
   * as far as it goes, like the ones within their wait), at most `maxWindows` of them; and the
   * final windows whose spans changed since they were written.
   */
  async function run(now: Date): Promise<ServiceGraphRun> {
    const { start, run } = await state(now);
    // A window is final once its last client span has waited its full wait.
    const lastFinal = Math.floor((now.getTime() - opts.waitMs - MINUTE) / MINUTE) * MINUTE;
    let late = 0;
    // Oldest first, up to maxWindows minutes a run: the rest waits for the next run.
    for (const [from, to] of await lateWindows(now, start.getTime())) {
      if (late >= maxWindows) break;
      const upTo = Math.min(to, from + (maxWindows - late) * MINUTE);
      await write(from, upTo, run, now, lastFinal);
      late += (upTo - from) / MINUTE;
    }
    const current = Math.floor(now.getTime() / MINUTE) * MINUTE + MINUTE;
    const end = Math.min(current, start.getTime() + maxWindows * MINUTE);
    const wrote = end > start.getTime();
    if (wrote) await write(start.getTime(), end, run, now, lastFinal);
    // Hours a run cut short left behind are at most a run's windows before `start`.
    const hours = await rollHours(run, Math.min(now.getTime() - LATE_LOOKBACK_MS - HOUR, start.getTime() - 2 * HOUR));
    const minutes = wrote ? (end - start.getTime()) / MINUTE : 0;
    const final = Math.max(0, Math.min(minutes, (lastFinal - start.getTime()) / MINUTE + 1));
    if (wrote || late || hours)
      opts.log.info(
        { from: start.toISOString(), to: new Date(end).toISOString(), run: run.toString(), final, late, hours },
        'service graph: windows written',
      );
    return wrote
      ? { from: start, to: new Date(end), run, final, late, hours }
      : { from: null, to: null, run, final: 0, late, hours };
  }

  return { run };
}

export type ServiceGraphJob = ReturnType<typeof createServiceGraphJob>;
