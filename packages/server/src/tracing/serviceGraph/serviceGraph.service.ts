import type {
  ConnectionType,
  ServiceGraphEdge,
  ServiceGraphNode,
  ServiceGraphNodeType,
  ServiceGraphResponse,
  ServiceGraphSeriesResponse,
} from '@lantern/shared';
import { join, param, sql, type SqlFragment } from '../../storage/sql';
import type { TelemetryStore } from '../../storage/telemetry';
import { USER_NODE } from './pairingSql';

/**
 * Reads of the service graph's minute rows (serviceGraphJob.ts): each minute's rows of its latest
 * recorded run only, folded over the range (the t-digest states merge into one p50/p99).
 */
export interface GraphRange {
  projectId: number;
  gte: Date;
  lt: Date;
}

const HOUR = 3600_000;

/**
 * The rows of the range as one source: the whole hours folded by the job (each hour's rows of its
 * latest recorded run), and the minutes of the rest (each minute's rows of its latest recorded
 * run; GLOBAL: the run lists are read once on a cluster). `covered`: the hours (Unix seconds)
 * read from the hour rows.
 */
function rowsOf(r: GraphRange, covered: number[], where: SqlFragment = sql`1`): SqlFragment {
  const parts: SqlFragment[] = [];
  if (covered.length > 0) {
    const lo = param.secondsUp(new Date(covered[0] * 1000));
    const hi = param.secondsUp(new Date(covered[covered.length - 1] * 1000 + HOUR));
    parts.push(sql`SELECT row_type, client, server, server_type, connection_type, calls, errors, duration, time
      FROM service_graph_hours
      WHERE project_id = ${param.uint32(r.projectId)} AND time >= ${lo} AND time < ${hi}
        AND toUnixTimestamp(time) IN ${param.uint32s(covered)}
        AND (time, run) GLOBAL IN (
          SELECT time, max(run) FROM service_graph_hour_runs WHERE time >= ${lo} AND time < ${hi} GROUP BY time)
        AND ${where}`);
  }
  // The minutes outside the covered hours, as time ranges (the table's key starts with time).
  const ranges: [number, number][] = [];
  let at = r.gte.getTime();
  for (const h of covered.map((x) => x * 1000)) {
    if (h > at) ranges.push([at, h]);
    at = Math.max(at, h + HOUR);
  }
  if (r.lt.getTime() > at) ranges.push([at, r.lt.getTime()]);
  if (ranges.length > 0) {
    const inRanges = join(
      ranges.map(
        ([from, to]) => sql`(time >= ${param.secondsUp(new Date(from))} AND time < ${param.secondsUp(new Date(to))})`,
      ),
      ' OR ',
    );
    parts.push(sql`SELECT row_type, client, server, server_type, connection_type, calls, errors, duration, time
      FROM service_graph_minutes
      WHERE project_id = ${param.uint32(r.projectId)} AND (${inRanges})
        AND (time, run) GLOBAL IN (SELECT time, max(run) FROM service_graph_runs WHERE ${inRanges} GROUP BY time)
        AND ${where}`);
  }
  // No range at all cannot happen (the range is not empty), but an empty source must still be one.
  return parts.length ? join(parts, ' UNION ALL ') : sql`SELECT * FROM service_graph_minutes WHERE 0`;
}

interface GraphRow {
  /** '' in the rows of the second grouping (calls per server). */
  kind: 'node' | 'edge' | '';
  client: string;
  server: string;
  server_type: string;
  connection_type: string;
  calls: string;
  errors: string;
  q: [number | null, number | null];
}

const NODE_TYPES = new Set<string>(['service', 'database', 'messaging', 'external']);
const CONNECTIONS = new Set<string>(['http', 'rpc', 'database', 'messaging', 'other']);

/** A merged percentile: null when nothing was measured (the engine says nan, JSON null). */
const ns = (v: number | null | undefined, calls: number) =>
  calls > 0 && typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : null;

export function createServiceGraphService(telemetry: TelemetryStore) {
  /** The hours wholly inside the range that the job has folded (Unix seconds, ascending). */
  async function coveredHours(r: GraphRange): Promise<number[]> {
    const first = Math.ceil(r.gte.getTime() / HOUR) * HOUR;
    const last = Math.floor(r.lt.getTime() / HOUR) * HOUR; // exclusive
    if (last <= first) return [];
    const rows = await telemetry.query<{ h: number }>(
      sql`SELECT DISTINCT toUnixTimestamp(time) AS h FROM service_graph_hour_runs
        WHERE time >= ${param.secondsUp(new Date(first))} AND time < ${param.secondsUp(new Date(last))} ORDER BY h`,
    );
    return rows.map((x) => Number(x.h));
  }

  async function graph(r: GraphRange): Promise<ServiceGraphResponse> {
    const covered = await coveredHours(r);
    // One pass, two groupings: the nodes and edges, and the calls into each server (a virtual
    // node's numbers); the second set's rows have an empty row_type.
    const rows = await telemetry.query<GraphRow>(
      sql`SELECT row_type AS kind, client, server, server_type, connection_type, toString(sum(calls)) AS calls,
          toString(sum(errors)) AS errors, quantilesTDigestMerge(0.5, 0.99)(duration) AS q
        FROM (${rowsOf(r, covered)})
        GROUP BY GROUPING SETS ((row_type, client, server, server_type, connection_type), (server, server_type))`,
    );
    const nodes = new Map<string, ServiceGraphNode>();
    const edges: ServiceGraphEdge[] = [];
    const add = (name: string, type: ServiceGraphNodeType, virtual: boolean) => {
      if (!nodes.has(name)) nodes.set(name, { name, type, virtual, calls: 0, errors: 0, p50: null, p99: null });
    };
    for (const row of rows) {
      const calls = Number(row.calls);
      const numbers = { calls, errors: Number(row.errors), p50: ns(row.q[0], calls), p99: ns(row.q[1], calls) };
      if (row.kind === 'node') nodes.set(row.client, { name: row.client, type: 'service', virtual: false, ...numbers });
      else if (row.kind === '') {
        if (row.server === '' || row.server_type === 'service') continue;
        const type = NODE_TYPES.has(row.server_type) ? (row.server_type as ServiceGraphNodeType) : 'external';
        nodes.set(row.server, { name: row.server, type, virtual: true, ...numbers });
      } else {
        const connectionType = CONNECTIONS.has(row.connection_type) ? (row.connection_type as ConnectionType) : 'other';
        edges.push({ client: row.client, server: row.server, connectionType, ...numbers });
      }
    }
    // Ends of edges with no numbers of their own: `user`, and services seen only in other minutes.
    for (const e of edges) {
      add(e.client, e.client === USER_NODE ? 'external' : 'service', e.client === USER_NODE);
      add(e.server, 'service', false);
    }
    return {
      nodes: [...nodes.values()].sort((a, b) => a.name.localeCompare(b.name)),
      edges: edges.sort((a, b) => a.client.localeCompare(b.client) || a.server.localeCompare(b.server)),
    };
  }

  /** A node's (`node`) or an edge's (`client` -> `server`) numbers per bucket, empty buckets filled. */
  async function series(
    r: GraphRange,
    of: { node: string } | { client: string; server: string },
  ): Promise<ServiceGraphSeriesResponse> {
    const minutes = Math.max(1, Math.ceil((r.lt.getTime() - r.gte.getTime()) / 60_000));
    const bucketMin =
      BUCKET_MINUTES.find((b) => minutes / b <= MAX_POINTS) ?? BUCKET_MINUTES[BUCKET_MINUTES.length - 1];
    const which: SqlFragment =
      'node' in of
        ? sql`((row_type = 'node' AND client = ${param.string(of.node)})
            OR (row_type = 'edge' AND server = ${param.string(of.node)} AND server_type != 'service'))`
        : sql`row_type = 'edge' AND client = ${param.string(of.client)} AND server = ${param.string(of.server)}`;
    const rows = await telemetry.query<{ t: number; calls: string; errors: string; q: [number | null, number | null] }>(
      sql`SELECT toUnixTimestamp(toStartOfInterval(time, INTERVAL ${param.uint32(bucketMin)} MINUTE)) AS t,
          toString(sum(calls)) AS calls, toString(sum(errors)) AS errors, quantilesTDigestMerge(0.5, 0.99)(duration) AS q
        FROM (${rowsOf(r, bucketMin % 60 === 0 ? await coveredHours(r) : [], which)})
        GROUP BY t ORDER BY t`,
    );
    const byTime = new Map(rows.map((row) => [Number(row.t) * 1000, row]));
    const step = bucketMin * 60_000;
    const out: ServiceGraphSeriesResponse = { bucket: step / 1000, time: [], calls: [], errors: [], p50: [], p99: [] };
    for (let t = Math.floor(r.gte.getTime() / step) * step; t < r.lt.getTime(); t += step) {
      const row = byTime.get(t);
      const calls = row ? Number(row.calls) : 0;
      out.time.push(new Date(t).toISOString());
      out.calls.push(calls);
      out.errors.push(row ? Number(row.errors) : 0);
      out.p50.push(ns(row?.q[0], calls));
      out.p99.push(ns(row?.q[1], calls));
    }
    return out;
  }

  return { graph, series };
}

/** Bucket sizes of the series, in minutes: the first that gives at most MAX_POINTS points. */
const BUCKET_MINUTES = [1, 2, 5, 10, 15, 30, 60, 120, 240, 720, 1440];
const MAX_POINTS = 30;

export type ServiceGraphService = ReturnType<typeof createServiceGraphService>;
