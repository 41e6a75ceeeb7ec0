import type { Logger } from 'pino';
import { ident, param, sql, type SqlFragment } from '../../storage/sql';
import {
  SPAN_DURATIONS_TABLE,
  SPAN_SYSTEMS_LAG_MS,
  spanDurationsInsert,
  spanSystemsInsert,
  type TelemetryStore,
} from '../../storage/telemetry';

const FIVE_MINUTES = 5 * 60_000;
const HOUR = 3_600_000;
/** Most span time one run rolls up (a run catching up after a stop; the next run goes on). */
const MAX_RUN_MS = 24 * HOUR;
/** How far back rolled-up windows are checked for spans that came after them, and most rewritten a run. */
const LATE_LOOKBACK_MS = 6 * HOUR;
const MAX_LATE_WINDOWS = 72;

/** A table of rows per 5-minute window written by the application (storage/telemetry). */
interface WindowRollup {
  /** How the job's log lines start ("span systems: windows rolled up"). */
  label: string;
  table: string;
  /** The column of its rows that adds up to the minute rows' `count` (the spans' summed `count`). */
  held: string;
  /** Its windows' length (5 minutes for both rollups today). */
  windowMs: number;
  /** The INSERT of the windows in [from, to) under `run`. */
  insert: (from: Date, to: Date, run: bigint) => SqlFragment;
  /** Span time one INSERT rolls up at most (a run writes up to MAX_RUN_MS, in INSERTs of this). */
  chunkMs: number;
  /**
   * No further INSERT of new windows after this long in a run (its INSERTs so far: the rest waits
   * for the next run): leader jobs run one at a time with the alert evaluation and delivery.
   */
  budgetMs?: number;
}

/**
 * The windows (`windowMs`) in [from, to) (of any project and system) whose latest rolled-up rows in
 * `table` do not hold their minute rows' count (`span_groups_1m`): not rolled up, or reached by
 * spans since. Per (system, window): the minute rows' count (`src` 0) against the sum of `held`
 * of each run's rows (`src` 1), the latest run's.
 */
export function staleWindowsSql(table: string, held: string, windowMs: number, from: Date, to: Date): SqlFragment {
  const where = sql`s.time >= ${param.time(from)} AND s.time < ${param.time(to)}`;
  const counts = sql`SELECT s.system AS system, toStartOfInterval(s.time, toIntervalMinute(${param.uint32(windowMs / 60_000)})) AS t, sum(s.count) AS c, 0 AS src, toUInt64(0) AS run FROM span_groups_1m AS s WHERE ${where} GROUP BY system, t UNION ALL SELECT s.system AS system, s.time AS t, sum(s.${ident(held)}) AS c, 1 AS src, s.run AS run FROM ${ident(table)} AS s WHERE ${where} GROUP BY system, t, run`;
  return sql`SELECT DISTINCT toUnixTimestamp(t) AS t FROM (${counts}) GROUP BY system, t HAVING NOT (sumIf(c, src = 0) = argMaxIf(c, run, src = 1)) ORDER BY t LIMIT 10000`;
}

/**
 * Rolls the closed windows (up to SPAN_SYSTEMS_LAG_MS ago) up into a table of
 * `WindowRollup` rows, on the node that holds the evaluator lease (alerting runs it as one of its
 * leader jobs). Each run writes [next, the current 5 minutes less the lag) in INSERTs of at most
 * `chunkMs` (`next`: the window after the newest rolled up, read again on a node's first run; at
 * most MAX_RUN_MS a run), then the windows of the last LATE_LOOKBACK_MS whose latest rows no longer
 * hold their minute rows' count (late spans) again, one INSERT each; each INSERT under a new run
 * number. Readers take a window's latest run, and other rows until that holds their count
 * (rollup.ts, heatmapRollup.ts), so a run cut short, or two nodes during a lease change, count
 * nothing twice.
 */
export function createWindowRollupJob(opts: { telemetry: TelemetryStore; log: Logger; rollup: WindowRollup }) {
  const { telemetry, log, rollup } = opts;
  let next: number | null = null;
  let lastRun = 0n;
  return {
    async run(now: Date): Promise<{ from: Date; to: Date; late: number } | null> {
      const W = rollup.windowMs;
      const end = Math.floor((now.getTime() - SPAN_SYSTEMS_LAG_MS) / W) * W;
      if (next === null) {
        const [r] = await telemetry.query<{
          last: number;
          rolled: string;
          run: string;
          first: number;
          minutes: string;
        }>(
          sql`SELECT toUnixTimestamp(max(time)) AS last, toString(count()) AS rolled, toString(max(run)) AS run,
              (SELECT toUnixTimestamp(min(time)) FROM span_groups_1m) AS first,
              (SELECT toString(count()) FROM span_groups_1m) AS minutes
            FROM ${ident(rollup.table)}`,
        );
        lastRun = BigInt(r.run);
        if (Number(r.rolled) > 0) next = Number(r.last) * 1000 + W;
        else if (Number(r.minutes) > 0) next = Math.floor((Number(r.first) * 1000) / W) * W;
      }
      // Nothing stored yet: read again on the next run.
      if (next === null) return null;
      // A run number per INSERT: a window written twice in one run (spans came between the two) has
      // one latest run, whose rows readers add up per hour.
      const clock = BigInt(now.getTime());
      const nextRun = () => (lastRun = clock > lastRun ? clock : lastRun + 1n);
      const from = new Date(next);
      const started = performance.now();
      const until = Math.max(next, Math.min(end, next + MAX_RUN_MS));
      while (next < until && performance.now() - started < (rollup.budgetMs ?? Infinity)) {
        const upTo = Math.min(until, next + rollup.chunkMs);
        await telemetry.command(rollup.insert(new Date(next), new Date(upTo), nextRun()));
        next = upTo;
      }
      const to = new Date(next);
      const stale = await telemetry.query<{ t: number }>(
        staleWindowsSql(rollup.table, rollup.held, W, new Date(Math.max(0, next - LATE_LOOKBACK_MS)), new Date(next)),
      );
      const late = stale.slice(0, MAX_LATE_WINDOWS).map((r) => Number(r.t) * 1000);
      for (const w of late) await telemetry.command(rollup.insert(new Date(w), new Date(w + W), nextRun()));
      if (to <= from && late.length === 0) {
        log.debug(`${rollup.label}: nothing to roll up`);
        return null;
      }
      log.info(
        { from: from.toISOString(), to: to.toISOString(), late: late.length },
        `${rollup.label}: windows rolled up`,
      );
      return { from, to, late: late.length };
    },
  };
}

/**
 * The per-system 5-minute rows (`span_systems_5m`, storage/telemetry/spanSystemRollup.ts): the
 * fold of the minute rows, a day in one INSERT.
 */
export const createSystemRollupJob = (opts: { telemetry: TelemetryStore; log: Logger }) =>
  createWindowRollupJob({
    ...opts,
    rollup: {
      label: 'span systems',
      table: 'span_systems_5m',
      held: 'count',
      windowMs: FIVE_MINUTES,
      insert: spanSystemsInsert,
      chunkMs: MAX_RUN_MS,
    },
  });

/**
 * The rows per duration bin (`span_durations_5m`, storage/telemetry/spanDurationRollup.ts): read
 * from the spans, an hour an INSERT and no new INSERT after 5 s a run (a day of 100M spans is a scan
 * of every span: the backfill after the migration goes on over several runs).
 */
export const createDurationRollupJob = (opts: { telemetry: TelemetryStore; log: Logger }) =>
  createWindowRollupJob({
    ...opts,
    rollup: {
      label: 'span durations',
      table: SPAN_DURATIONS_TABLE,
      held: 'weight',
      windowMs: FIVE_MINUTES,
      insert: spanDurationsInsert,
      chunkMs: HOUR,
      budgetMs: 5_000,
    },
  });
