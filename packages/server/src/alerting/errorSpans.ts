import { PROMOTED_ATTRS } from '@lantern/shared';
import { ident, join, param, sql, uuidToTraceId } from '../storage/sql';
import { ERROR_ARRIVALS_TABLE, type TelemetryStore } from '../storage/telemetry';

/**
 * Reads of telemetry for error monitors: failed spans (status error) and standalone error logs
 * grouped by span group over a window of their arrival (the `error_arrivals` table,
 * storage/telemetry/errorArrivals.ts), and the attributes of one span. A failed span with an
 * exception raises one alert, for the span's group, not one for the exception too.
 */
const MAX_GROUPS_PER_SCAN = 1000;

/** Promoted columns of spans_index and the attribute each holds. */
const PROMOTED: [column: string, attr: string][] = PROMOTED_ATTRS.map(([attr, column]) => [column, attr]);

interface IndexAttrs {
  l_attr_keys: string[];
  l_attr_values: string[];
  [column: string]: unknown;
}

export interface ErrorGroup {
  groupId: string;
  system: string;
  type: string;
  count: number;
  traceId: string;
  spanId: string;
  displayName: string;
  firstTime: Date;
  lastTime: Date;
  /** All attributes of the group's latest error row in the window, as strings. */
  attrs: Record<string, string>;
}

function attrsOf(r: IndexAttrs): Record<string, string> {
  const attrs: Record<string, string> = {};
  r.l_attr_keys.forEach((k, i) => (attrs[k] = r.l_attr_values[i] ?? ''));
  for (const [column, attr] of PROMOTED) {
    const v = r[`l_${column}`];
    if (typeof v === 'string' && v !== '') attrs[attr] = v;
  }
  return attrs;
}

// Aliases get an `l_` prefix: an alias equal to a column name would shadow it inside the aggregates.
const promotedLatest = join(
  PROMOTED.map(([c]) => sql`argMax(${ident(c)}, time) AS ${ident(`l_${c}`)}`),
  ', ',
);
const promotedColumns = join(
  PROMOTED.map(([c]) => sql`${ident(c)} AS ${ident(`l_${c}`)}`),
  ', ',
);

/** The time column comes back as 'YYYY-MM-DD hh:mm:ss.ffffff' in UTC. */
const chTime = (s: string) => new Date(`${s.replace(' ', 'T')}Z`);

export function createErrorSpans(store: TelemetryStore) {
  return {
    /** The engine's clock, which stamps each error row's arrival. */
    async engineNow(): Promise<Date> {
      const [row] = await store.query<{ now: string }>(sql`SELECT toString(now64(6, 'UTC')) AS now`);
      return chTime(row.now);
    },

    /** Failed spans and standalone error logs that arrived in [from, to), by group. */
    async groups(projectId: number, from: Date, to: Date): Promise<ErrorGroup[]> {
      const rows = await store.query<IndexAttrs & Record<string, string>>(sql`
        SELECT toString(group_id) AS gid, system AS sys, any(type) AS span_type, count() AS n,
          toString(argMax(trace_id, time)) AS trace_uuid, toString(argMax(id, time)) AS span_id,
          argMax(display_name, time) AS display_name, toString(min(time)) AS first_time, toString(max(time)) AS last_time,
          argMax(attr_keys, time) AS l_attr_keys, argMax(attr_values, time) AS l_attr_values, ${promotedLatest}
        FROM ${ident(ERROR_ARRIVALS_TABLE)}
        WHERE project_id = ${param.uint32(projectId)} AND arrived >= ${param.time(from)} AND arrived < ${param.time(to)}
        GROUP BY system, group_id
        ORDER BY n DESC
        LIMIT ${param.uint32(MAX_GROUPS_PER_SCAN)}`);
      return rows.map((r) => ({
        groupId: r.gid,
        system: r.sys,
        type: r.span_type,
        count: Number(r.n),
        traceId: uuidToTraceId(r.trace_uuid),
        spanId: r.span_id,
        displayName: r.display_name,
        firstTime: chTime(r.first_time),
        lastTime: chTime(r.last_time),
        attrs: attrsOf(r),
      }));
    },

    /**
     * Attributes of an alert's span (a failed span, or the row of a standalone error log), for
     * matchers on manual events and for e-mails; null when it is gone.
     */
    async spanAttrs(projectId: number, traceId: string, spanId: string): Promise<Record<string, string> | null> {
      if (!/^[0-9a-f]{32}$/.test(traceId) || !/^\d{1,20}$/.test(spanId)) return null;
      const rows = await store.query<IndexAttrs>(sql`
        SELECT attr_keys AS l_attr_keys, attr_values AS l_attr_values, ${promotedColumns}
        FROM spans_index
        WHERE project_id = ${param.uint32(projectId)} AND trace_id = ${param.traceId(traceId)} AND id = ${param.uint64(BigInt(spanId))}
        LIMIT 1`);
      return rows[0] ? attrsOf(rows[0]) : null;
    },
  };
}

export type ErrorSpans = ReturnType<typeof createErrorSpans>;

/** The attributes an error alert keeps for its list facets (reference alerting §2.5). */
const ALERT_ATTRS_BY_TYPE: Record<string, string[]> = {
  http: ['http.method', 'http.request.method'],
  db: ['db.system', 'db.name', 'db.operation', 'db.sql.table'],
  rpc: ['rpc.system', 'rpc.service', 'rpc.method'],
  messaging: ['messaging.system'],
  log: ['log.severity', 'exception.type'],
};

export function errorAlertAttrs(type: string, attrs: Record<string, string>): Record<string, string> {
  const keys = [
    'service.name',
    'service.version',
    'deployment.environment',
    'host.name',
    ...(ALERT_ATTRS_BY_TYPE[type] ?? []),
  ];
  const out: Record<string, string> = {};
  for (const k of keys) if (attrs[k]) out[k] = attrs[k];
  return out;
}
