import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { AlertingDb } from './db';
import type { Delivery } from './delivery/deliver';
import { errorScanEnd, evaluateErrors, type ErrorEvaluatorDeps } from './evaluateErrors';
import { evaluateMetricMonitor, type MetricEvaluatorDeps } from './evaluateMetrics';
import { acquireLease, releaseLease } from './lease';
import { NO_ENGINE_REASON } from './metricQueryRunner';

/**
 * Runs the evaluator and the delivery worker on the process that holds the lease. Evaluation runs
 * each minute (at :30, once the previous minute's data is in), delivery every few seconds. Time
 * comes from `now()`, so tests drive whole minutes in milliseconds through `tick()`.
 * With `evaluateEveryMs` under a minute (`alerting.check_interval_seconds`) error monitors scan that
 * often, and metric monitors still look at a minute once, when it has been over for `metricDelayMs`.
 */
export interface SchedulerDeps {
  db: AlertingDb;
  metricDeps: MetricEvaluatorDeps;
  errorDeps: ErrorEvaluatorDeps;
  delivery: Delivery;
  projectIds: () => number[];
  now: () => Date;
  log: Logger;
  deliveryIntervalMs?: number;
  /** How often the timer evaluates (default: each minute at :30). */
  evaluateEveryMs?: number;
  /** How long the lease lasts without renewal (default 90 s). */
  leaseTtlMs?: number;
  /** How long after a minute ends the timer's metric monitors look at it (default 30 s: its data is in). */
  metricDelayMs?: number;
  /** Other areas' work that must run on one node at a time: run behind the same lease. */
  leaderJobs?: readonly LeaderJob[];
}

/**
 * Work of another area that one process of the deployment does at a time (the service graph's
 * windows): run every `everyMs` on the process that holds the evaluator lease, between its ticks.
 */
export interface LeaderJob {
  name: string;
  everyMs: number;
  run(now: Date): Promise<unknown>;
}

const MINUTE_MS = 60_000;

export function createScheduler(deps: SchedulerDeps) {
  const holder = `${process.pid}-${randomUUID()}`;
  const timers: NodeJS.Timeout[] = [];
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let warnedNoEngine = false;
  const leaseTtlMs = deps.leaseTtlMs ?? 90_000;
  const metricDelayMs = deps.metricDelayMs ?? 30_000;
  /** The last minute whose metric monitors the timer evaluated. */
  let lastMetricTick = 0;

  /** Serialises ticks and deliveries: a slow tick never overlaps the next. */
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const p = running.then(fn, fn);
    running = p.catch(() => undefined);
    return p;
  };

  /** Every project's error scan, all up to one end: the engine's clock read once a round. */
  async function evaluateErrorMonitors(now: Date): Promise<void> {
    let scanEnd: Date;
    try {
      scanEnd = await errorScanEnd(deps.errorDeps);
    } catch (err) {
      deps.log.error({ err }, 'error monitors: the telemetry store did not answer');
      return;
    }
    for (const projectId of deps.projectIds()) {
      try {
        await evaluateErrors(deps.errorDeps, projectId, scanEnd, now);
      } catch (err) {
        deps.log.error({ err, projectId }, 'error monitor evaluation failed');
      }
    }
  }

  /** Error monitors up to `now`, and metric monitors at `tick` (a whole minute) unless it is null. */
  async function evaluate(now: Date, tick: Date | null): Promise<{ leader: boolean }> {
    if (!(await acquireLease(deps.db, holder, now, leaseTtlMs))) return { leader: false };
    await evaluateErrorMonitors(now);
    if (!tick) return { leader: true };
    const monitors = await deps.metricDeps.monitors.metricMonitorsToCheck();
    if (!deps.metricDeps.runner && monitors.length && !warnedNoEngine) {
      warnedNoEngine = true;
      deps.log.warn({ monitors: monitors.length }, `metric monitors ${NO_ENGINE_REASON}`);
    }
    for (const m of monitors) {
      try {
        await evaluateMetricMonitor(deps.metricDeps, m, tick);
      } catch (err) {
        deps.log.error({ err, monitorId: m.id }, 'metric monitor evaluation failed');
      }
    }
    return { leader: true };
  }

  async function runJob(job: LeaderJob, now: Date): Promise<{ leader: boolean }> {
    if (!(await acquireLease(deps.db, holder, now, leaseTtlMs))) return { leader: false };
    try {
      await job.run(now);
    } catch (err) {
      deps.log.error({ err, job: job.name }, 'leader job failed');
    }
    return { leader: true };
  }

  async function deliver(now: Date) {
    if (!(await acquireLease(deps.db, holder, now, leaseTtlMs))) return { sent: 0, failed: 0, skipped: 0 };
    return deps.delivery.deliverDue(now);
  }

  const loop = (fn: () => Promise<unknown>, firstDelayMs: number, everyMs: number) => {
    const run = () => {
      if (stopped) return;
      serial(fn)
        .catch((err) => deps.log.error({ err }, 'alerting loop failed'))
        .finally(() => {
          if (!stopped) timers.push(setTimeout(run, everyMs).unref());
        });
    };
    timers.push(setTimeout(run, firstDelayMs).unref());
  };

  return {
    /** One evaluation at `now` (default: the clock), then delivery of what is due. */
    tick: (now = deps.now()) =>
      serial(async () => {
        const { leader } = await evaluate(now, minuteOf(now.getTime()));
        return { leader, delivered: leader ? await deps.delivery.deliverDue(now) : null };
      }),
    /** Only the evaluation at `now`: what the outbox holds afterwards is delivered later. */
    evaluate: (now = deps.now()) => serial(() => evaluate(now, minuteOf(now.getTime()))),
    /** Delivery of what is due at `now` (default: the clock), if this process holds the lease. */
    deliver: (now = deps.now()) => serial(() => deliver(now)),
    start() {
      const every = deps.evaluateEveryMs ?? MINUTE_MS;
      const toDelay = (MINUTE_MS + metricDelayMs - (deps.now().getTime() % MINUTE_MS)) % MINUTE_MS || MINUTE_MS;
      loop(
        () => {
          const now = deps.now();
          // The minute that has been over for metricDelayMs: by default, at :30 the one that began then.
          const due = minuteOf(now.getTime() - metricDelayMs);
          const fresh = due.getTime() > lastMetricTick;
          if (fresh) lastMetricTick = due.getTime();
          return evaluate(now, fresh ? due : null);
        },
        every < MINUTE_MS ? every : toDelay,
        every,
      );
      loop(() => deliver(deps.now()), 1000, deps.deliveryIntervalMs ?? 2000);
      for (const job of deps.leaderJobs ?? []) loop(() => runJob(job, deps.now()), job.everyMs, job.everyMs);
    },
    /** One run of a leader job at `now`, if this process holds the lease (tests). */
    runJob: (job: LeaderJob, now = deps.now()) => serial(() => runJob(job, now)),
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      await running;
      await releaseLease(deps.db, holder).catch(() => undefined);
    },
    holder,
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;

const minuteOf = (ms: number) => new Date(Math.floor(ms / MINUTE_MS) * MINUTE_MS);
