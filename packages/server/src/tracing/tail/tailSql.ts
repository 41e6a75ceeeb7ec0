import { TAIL_CURSOR } from '@lantern/shared';
import { ident, join, param, sql, uuidToTraceId, type SqlFragment } from '../../storage/sql';
import { SPAN_ARRIVALS_TABLE } from '../../storage/telemetry';
import type { CompiledQuery } from '../query/compile';
import { whereSql } from '../query/scope';

/**
 * The live tail's reads (pure; docs/decisions/live-tail.md). Rows are tailed in the order of
 * `(arrived, trace_id, id)` of `span_arrivals` (storage/telemetry/spanArrivals.ts); that triple is
 * a row's cursor. The query language's `where` parts run on spans_index, as for the span list.
 */

/** A position in arrival order: after every row whose (arrived, trace id, id) is at most this. */
export interface Cursor {
  /** Arrival, µs since 1970 (the engine's clock). */
  us: bigint;
  traceHex: string;
  id: string;
}

const LAST_TRACE = 'f'.repeat(32);
const LAST_ID = '18446744073709551615';

/** After every row that arrived at or before `us`. */
export const cursorAtEnd = (us: bigint): Cursor => ({ us, traceHex: LAST_TRACE, id: LAST_ID });

export const formatCursor = (c: Cursor): string => `${c.us}-${c.traceHex}-${c.id}`;

/** A cursor this server wrote (`id:` of an event), or null. */
export function parseCursor(text: string): Cursor | null {
  const m = TAIL_CURSOR.exec(text.trim());
  if (!m || BigInt(m[3]) > BigInt(LAST_ID)) return null;
  return { us: BigInt(m[1]), traceHex: m[2], id: m[3] };
}

export const cursorLess = (a: Cursor, b: Cursor): boolean =>
  a.us !== b.us ? a.us < b.us : a.traceHex !== b.traceHex ? a.traceHex < b.traceHex : BigInt(a.id) < BigInt(b.id);

const micros = (us: bigint) => sql`fromUnixTimestamp64Micro(${param.int64(us)}, 'UTC')`;

/** The engine's clock in µs. */
export const engineNowSql = sql`SELECT toString(toUnixTimestamp64Micro(now64(6, 'UTC'))) AS now`;

export interface ProbeRow {
  project_id: number;
  end_us: string;
  n: string;
  tmin: string;
  tmax: string;
}

/**
 * One read for every open tail of the server: per project, how many rows arrived after `from`
 * (the earliest position of its tails) and settled (arrived at least `settleMs` before the
 * engine's clock), and the span times they carry. Nothing arrived: no row, and no other query.
 */
export function probeSql(from: ReadonlyMap<number, bigint>, settleMs: number): SqlFragment {
  const conds = [...from].map(([p, us]) => sql`(project_id = ${param.uint32(p)} AND arrived >= ${micros(us)})`);
  return sql`WITH now64(6, 'UTC') - toIntervalMillisecond(${param.uint32(settleMs)}) AS end_
    SELECT project_id, toString(toUnixTimestamp64Micro(end_)) AS end_us, count() AS n,
      toString(toUnixTimestamp64Micro(min(time))) AS tmin, toString(toUnixTimestamp64Micro(max(time))) AS tmax
    FROM ${ident(SPAN_ARRIVALS_TABLE)}
    WHERE (${join(conds, ' OR ')}) AND arrived <= end_
    GROUP BY project_id`;
}

export interface MatchRow {
  arrived_us: string;
  trace_uuid: string;
  id: string;
  total: string;
}

/**
 * A tail's rows after `after` up to `end`, in arrival order, at most `limit`, with the number that
 * matched (`total`): the rows of span_arrivals whose spans_index row passes the tail's system and
 * `where` filters, looked for among the span times `[tminUs, tmaxUs]` of the window's rows.
 */
export function matchesSql(m: {
  projectId: number;
  systems: readonly string[];
  q: CompiledQuery;
  after: Cursor;
  endUs: bigint;
  tminUs: bigint;
  tmaxUs: bigint;
  limit: number;
}): SqlFragment {
  const scope = {
    projectId: m.projectId,
    systems: m.systems,
    gte: new Date(Number(m.tminUs / 1000n)),
    lt: new Date(Number(m.tmaxUs / 1000n) + 1),
  };
  const from = micros(m.after.us);
  return sql`SELECT toString(toUnixTimestamp64Micro(a.arrived)) AS arrived_us, toString(a.trace_id) AS trace_uuid,
      toString(a.id) AS id, count() OVER () AS total
    FROM ${ident(SPAN_ARRIVALS_TABLE)} AS a
    WHERE a.project_id = ${param.uint32(m.projectId)} AND a.arrived >= ${from} AND a.arrived <= ${micros(m.endUs)}
      AND (a.arrived, a.trace_id, a.id) > (${from}, ${param.traceId(m.after.traceHex)}, ${param.uint64(BigInt(m.after.id))})
      AND (a.trace_id, a.id) GLOBAL IN (SELECT s.trace_id, s.id FROM spans_index AS s WHERE ${whereSql(scope, m.q)})
    ORDER BY a.arrived, a.trace_id, a.id
    LIMIT ${param.uint32(m.limit)}`;
}

export const rowCursor = (r: MatchRow): Cursor => ({
  us: BigInt(r.arrived_us),
  traceHex: uuidToTraceId(r.trace_uuid),
  id: r.id,
});
