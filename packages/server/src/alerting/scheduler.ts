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
}

const LEASE_TTL_MS = 90_000;

export function createScheduler(deps: SchedulerDeps) {
  const holder = `${process.pid}-${randomUUID()}`;
  const timers: NodeJS.Timeout[] = [];
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let warnedNoEngine = false;

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

  async function evaluate(now: Date): Promise<{ leader: boolean }> {
    if (!(await acquireLease(deps.db, holder, now, LEASE_TTL_MS))) return { leader: false };
    const tick = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
    await evaluateErrorMonitors(now);
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

  async function deliver(now: Date) {
    if (!(await acquireLease(deps.db, holder, now, LEASE_TTL_MS))) return { sent: 0, failed: 0, skipped: 0 };
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
        const { leader } = await evaluate(now);
        return { leader, delivered: leader ? await deps.delivery.deliverDue(now) : null };
      }),
    /** Only the evaluation at `now`: what the outbox holds afterwards is delivered later. */
    evaluate: (now = deps.now()) => serial(() => evaluate(now)),
    /** Delivery of what is due at `now` (default: the clock), if this process holds the lease. */
    deliver: (now = deps.now()) => serial(() => deliver(now)),
    start() {
      const toHalfMinute = (90_000 - (deps.now().getTime() % 60_000)) % 60_000 || 60_000;
      loop(() => evaluate(deps.now()), toHalfMinute, 60_000);
      loop(() => deliver(deps.now()), 1000, deps.deliveryIntervalMs ?? 2000);
    },
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
