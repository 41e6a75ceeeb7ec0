import type { ErrorAlertParams } from '@lantern/shared';
import type { Logger } from 'pino';
import type { AlertsStore } from './alerts.store';
import { adoptErrorAlert, emitAlertEvent, type EventDeps } from './alertEvents';
import type { AlertingDb, AlertingTrx } from './db';
import type { MonitorRow } from './monitors.store';
import { decideErrorAlert } from './errorCheck';
import { errorAlertAttrs, type ErrorGroup, type ErrorSpans } from './errorSpans';

/**
 * Error monitors, one project per call: failed spans and standalone error logs stored since the
 * last scan (storage/telemetry/errorArrivals.ts), grouped by span group, become alerts (one per group forever) or recount an existing one (reference alerting
 * §2.5–§2.6). The scan window and every alert change commit in one transaction with the scan
 * cursor, so a restart re-runs exactly the window that did not commit: no lost, no repeated event.
 *
 * Windows are of arrival (the engine's clock when the span's insert ran), not of span time: a
 * span is stored when it ends, so a scan by start time never saw a failed span that lasted longer
 * than the scan's lag, nor one that an exporter sent late.
 */

/**
 * A span's arrival is stamped when its insert starts and visible when the insert commits: a scan
 * stays this far behind the engine's clock so that no insert still running when it reads can
 * commit rows into a window already scanned. Ingest batches commit within seconds.
 */
export const ERROR_SCAN_LAG_MS = 30_000;
/** A project scanned for the first time looks back this far. */
export const FIRST_SCAN_LOOKBACK_MS = 15 * 60_000;

export interface ErrorEvaluatorDeps extends EventDeps {
  db: AlertingDb;
  alerts: AlertsStore;
  errorSpans: ErrorSpans;
  log: Logger;
  /** ERROR_SCAN_LAG_MS unless set (tests, whose inserts have all committed when they scan). */
  scanLagMs?: number;
}

/** Where this round's scans end: the engine's clock less the lag (one read for every project). */
export async function errorScanEnd(deps: ErrorEvaluatorDeps): Promise<Date> {
  return new Date((await deps.errorSpans.engineNow()).getTime() - (deps.scanLagMs ?? ERROR_SCAN_LAG_MS));
}

/** `to`: the round's scan end (errorScanEnd). */
export async function evaluateErrors(
  deps: ErrorEvaluatorDeps,
  projectId: number,
  to: Date,
  now: Date,
): Promise<{ created: number; notified: number }> {
  const cursor = await deps.db
    .selectFrom('alerting_error_cursors')
    .select('scanned_to')
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  const from = cursor ? new Date(cursor.scanned_to) : new Date(to.getTime() - FIRST_SCAN_LOOKBACK_MS);
  if (to <= from) return { created: 0, notified: 0 };
  const groups = await deps.errorSpans.groups(projectId, from, to);

  let created = 0;
  let notified = 0;
  await deps.db.transaction().execute(async (trx) => {
    const monitors = groups.length ? await deps.monitors.activeErrorMonitors(trx, projectId) : [];
    for (const g of groups) {
      const r = await applyGroup(trx, deps, projectId, g, monitors, to, now);
      if (r === 'created') created++;
      if (r === 'notified') notified++;
    }
    await trx
      .insertInto('alerting_error_cursors')
      .values({ project_id: projectId, scanned_to: to.toISOString() })
      .onConflict((oc) => oc.column('project_id').doUpdateSet({ scanned_to: to.toISOString() }))
      .execute();
  });
  return { created, notified };
}

async function applyGroup(
  trx: AlertingTrx,
  deps: ErrorEvaluatorDeps,
  projectId: number,
  g: ErrorGroup,
  monitors: readonly MonitorRow[],
  scannedTo: Date,
  now: Date,
): Promise<'created' | 'notified' | 'silent'> {
  const existing = await deps.alerts.errorAlert(trx, projectId, g.groupId);
  const prevCount = existing ? (JSON.parse(existing.params) as ErrorAlertParams).spanCount : 0;
  const action = decideErrorAlert(
    existing ? { state: existing.state as 'open' | 'closed', spanCount: prevCount } : null,
    g.count,
  );

  if (action.kind === 'create') {
    const params: ErrorAlertParams = {
      traceId: g.traceId,
      spanId: g.spanId,
      spanCount: action.spanCount,
      spanCountTime: scannedTo.toISOString(),
    };
    const alert = await deps.alerts.insert(trx, {
      project_id: projectId,
      dedup_key: `error:${g.groupId}`,
      name: g.displayName || g.system,
      state: 'open',
      type: 'error',
      monitor_id: 0,
      trackable_model: 'SpanGroup',
      trackable_id: g.groupId,
      attrs: JSON.stringify(errorAlertAttrs(g.type, g.attrs)),
      attrs_hash: '',
      params: JSON.stringify(params),
      created_at: g.firstTime.toISOString(),
      updated_at: g.lastTime.toISOString(),
    });
    if (!alert) return 'silent';
    await emitAlertEvent(
      trx,
      deps,
      { alert, name: 'created', params, userId: null, createdAt: g.firstTime, spanAttrs: g.attrs },
      now,
    );
    return 'created';
  }

  const alert = existing!;
  // The params always point at the latest failed span, so the alert card shows a current example.
  const params: ErrorAlertParams = {
    traceId: g.traceId,
    spanId: g.spanId,
    spanCount: action.spanCount,
    spanCountTime: scannedTo.toISOString(),
  };
  const set = action.notify
    ? { params: JSON.stringify(params), state: 'open', updated_at: g.lastTime.toISOString() }
    : { params: JSON.stringify(params) };
  if (!(await deps.alerts.casUpdate(trx, alert.id, alert.state, set))) return 'silent';
  if (action.notify)
    await emitAlertEvent(
      trx,
      deps,
      {
        alert: { ...alert, ...set },
        name: 'recurring',
        params,
        userId: null,
        createdAt: deps.now(),
        spanAttrs: g.attrs,
      },
      now,
    );
  // Open now: monitors that match its spans and have not had it yet (created after it opened
  // under another monitor) take it and are told, once.
  const adopted = await adoptErrorAlert(trx, deps, { ...alert, ...set }, g.attrs, monitors, now);
  return action.notify || adopted ? 'notified' : 'silent';
}
