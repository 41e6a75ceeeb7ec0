import type { Logger } from 'pino';
import { sql } from '../../storage/sql';
import { SPAN_SYSTEMS_LAG_MS, spanSystemsInsert, type TelemetryStore } from '../../storage/telemetry';
import { staleSystemWindowsSql } from './rollup';

const FIVE_MINUTES = 5 * 60_000;
/** Most span time one run rolls up (a run catching up after a stop; the next run goes on). */
const MAX_RUN_MS = 24 * 3_600_000;
/** How far back rolled-up windows are checked for spans that came after them, and most rewritten a run. */
const LATE_LOOKBACK_MS = 6 * 3_600_000;
const MAX_LATE_WINDOWS = 72;

/**
 * Rolls the closed 5-minute windows of the minute rows up into `span_systems_5m`
 * (storage/telemetry/spanSystemRollup.ts) on the node that holds the evaluator lease (alerting
 * runs it as one of its leader jobs). Each run writes [next, the current 5 minutes less the lag) in
 * one INSERT (`next`: the window after the newest rolled up, read again on a node's first run),
 * then the windows of the last LATE_LOOKBACK_MS whose latest rows no longer hold their minute
 * rows' count (late spans) again, one INSERT each; each INSERT under a new run number. Readers take a window's latest
 * run, and its minute rows until that holds their count (rollup.ts), so a run cut short, or two
 * nodes during a lease change, count nothing twice.
 */
export function createSystemRollupJob(opts: { telemetry: TelemetryStore; log: Logger }) {
  let next: number | null = null;
  let lastRun = 0n;
  return {
    async run(now: Date): Promise<{ from: Date; to: Date; late: number } | null> {
      const end = Math.floor((now.getTime() - SPAN_SYSTEMS_LAG_MS) / FIVE_MINUTES) * FIVE_MINUTES;
      if (next === null) {
        const [r] = await opts.telemetry.query<{
          last: number;
          rolled: string;
          run: string;
          first: number;
          minutes: string;
        }>(
          sql`SELECT toUnixTimestamp(max(time)) AS last, toString(count()) AS rolled, toString(max(run)) AS run,
              (SELECT toUnixTimestamp(min(time)) FROM span_groups_1m) AS first,
              (SELECT toString(count()) FROM span_groups_1m) AS minutes
            FROM span_systems_5m`,
        );
        lastRun = BigInt(r.run);
        if (Number(r.rolled) > 0) next = Number(r.last) * 1000 + FIVE_MINUTES;
        else if (Number(r.minutes) > 0) next = Math.floor((Number(r.first) * 1000) / FIVE_MINUTES) * FIVE_MINUTES;
      }
      // Nothing stored yet: read again on the next run.
      if (next === null) return null;
      // A run number per INSERT: a window written twice in one run (spans came between the two) has
      // one latest run, whose rows readers add up per hour (rollup.ts).
      const clock = BigInt(now.getTime());
      const nextRun = () => (lastRun = clock > lastRun ? clock : lastRun + 1n);
      const from = new Date(next);
      const to = new Date(Math.max(next, Math.min(end, next + MAX_RUN_MS)));
      if (to > from) {
        await opts.telemetry.command(spanSystemsInsert(from, to, nextRun()));
        next = to.getTime();
      }
      const stale = await opts.telemetry.query<{ t: number }>(
        staleSystemWindowsSql(new Date(Math.max(0, next - LATE_LOOKBACK_MS)), new Date(next)),
      );
      const late = stale.slice(0, MAX_LATE_WINDOWS).map((r) => Number(r.t) * 1000);
      for (const w of late)
        await opts.telemetry.command(spanSystemsInsert(new Date(w), new Date(w + FIVE_MINUTES), nextRun()));
      if (to <= from && late.length === 0) {
        opts.log.debug('span systems: nothing to roll up');
        return null;
      }
      opts.log.info(
        { from: from.toISOString(), to: to.toISOString(), late: late.length },
        'span systems: windows rolled up',
      );
      return { from, to, late: late.length };
    },
  };
}
