import { ident, join, param, sql, type SqlFragment } from '../../storage/sql';

/**
 * The service graph's one write (issue 36): the minutes [from, to) of every project, computed from
 * the spans in one `INSERT ... SELECT`, tagged with the run that wrote them.
 *
 * Pairing: a call is a client (or producer) span and the server (or consumer) span whose parent it
 * is. Both are keyed by (trace id, k) where k is the client's own id and the server's parent id
 * (a root server span has a group of its own, keyed by its own id: two roots of one trace are two
 * calls, and a server span nested under a root is not in the root's group),
 * and one GROUP BY over the spans puts the two halves of a call in one group, whichever export,
 * batch or node brought them: no join, and on a cluster each trace sits on one shard anyway. The
 * spans read reach PAIR_SLACK_MS either side of the windows, so a server span up to two minutes
 * after (or before, clock skew) its client still pairs. A group gives at most one edge and one node
 * call:
 *
 * - both halves: an edge client service -> server service, in the client's minute, with the
 *   client's duration, failed when either half failed;
 * - a client alone whose wait has run out (`expiredBefore`): an edge to a virtual node named from
 *   its attributes (virtualTarget below); one still within the wait is left out of this run, and a
 *   later run of the same window counts it once its server half is in, or as virtual once it expired;
 * - a root server span (no parent) alone: an edge from the virtual node `user`;
 * - a server span whose parent is not a client span (or never came): its node's call, no edge;
 * - every server half: a call of its service's node, in its own minute.
 *
 * Every service with a span in a window gets a node row (0 calls when it serves none), so services
 * that call nothing and are called by nothing are still drawn.
 */
export const PAIR_SLACK_MS = 120_000;

/** Attributes the virtual names read, each looked up once per span as `a_<key with _>`. */
const NAME_ATTRS = [
  'peer.service',
  'server.address',
  'server.port',
  'net.peer.name',
  'net.peer.port',
  'network.peer.address',
  'network.peer.port',
  'db.name',
  'db.namespace',
  'messaging.system',
  'messaging.destination.name',
  'messaging.destination',
];
const NAME_ATTR_COLUMNS = join(
  NAME_ATTRS.map((key) => sql`attr_values[indexOf(attr_keys, ${param.string(key)})] AS ${ident(alias(key))}`),
  ', ',
);
function alias(key: string): string {
  return `a_${key.replaceAll('.', '_')}`;
}

/** How a span calls: by its kind, its system type (spanSystem.ts) and its attributes. */
const CONNECTION = sql`multiIf(
      kind IN ('producer', 'consumer') OR type = 'messaging', 'messaging',
      type = 'db' OR db_system != '', 'database',
      type = 'rpc', 'rpc',
      type = 'http' OR has(attr_keys, 'http.request.method') OR has(attr_keys, 'http.method'), 'http',
      'other')`;

/**
 * What a client span calls when no server span answers it (issue 36): a database by `db.system`
 * and `db.name` / `db.namespace` (else its address), a messaging system by `messaging.system` and
 * destination, anything else by `peer.service`, else `server.address[:server.port]`, else the peer
 * address (`net.peer.name`, `network.peer.address`). As (type, name); `conn` is the span's
 * CONNECTION, the `a_` names the attributes above.
 */
const VIRTUAL_TYPE = sql`multiIf(conn = 'database', 'database', conn = 'messaging', 'messaging', 'external')`;
const VIRTUAL_NAME = sql`multiIf(
      conn = 'database',
        concat(if(db_system != '', db_system, 'db'), if(db_target != '', concat('/', db_target), '')),
      conn = 'messaging',
        concat(if(a_messaging_system != '', a_messaging_system, 'messaging'), if(destination != '', concat('/', destination), '')),
      coalesce(nullIf(a_peer_service, ''), nullIf(server_addr, ''), nullIf(net_peer, ''), nullIf(network_peer, ''), 'unknown'))`;
/** Helpers of VIRTUAL_NAME: `host` or `host:port`, the first non-empty of several. */
const NAME_PARTS = sql`if(a_server_port != '' AND a_server_address != '', concat(a_server_address, ':', a_server_port), a_server_address) AS server_addr,
            if(a_net_peer_port != '' AND a_net_peer_name != '', concat(a_net_peer_name, ':', a_net_peer_port), a_net_peer_name) AS net_peer,
            if(a_network_peer_port != '' AND a_network_peer_address != '', concat(a_network_peer_address, ':', a_network_peer_port), a_network_peer_address) AS network_peer,
            coalesce(nullIf(a_db_name, ''), nullIf(a_db_namespace, ''), server_addr) AS db_target,
            coalesce(nullIf(a_messaging_destination_name, ''), a_messaging_destination) AS destination`;

/** The virtual caller of root server spans. */
export const USER_NODE = 'user';

export interface PairingWindow {
  /** First minute written (aligned to the minute). */
  from: Date;
  /** End of the last minute written (exclusive, aligned). */
  to: Date;
  /** The run's tag, greater than any before it. */
  run: bigint;
  /** Client spans that started before this have waited long enough for their server half. */
  expiredBefore: Date;
  /**
   * Projects that group by environment (`group_by_env`): their services are named
   * `service (environment)` (serviceName below), one node per environment.
   */
  envProjects?: readonly number[];
}

/** A span's service as a node name: `service (environment)` in projects that group by environment. */
const serviceName = (envProjects: readonly number[]) =>
  envProjects.length === 0
    ? sql`toString(service_name)`
    : sql`if(has(${param.uint32s(envProjects)}, project_id) AND deployment_environment != '',
        concat(toString(service_name), ' (', deployment_environment, ')'), toString(service_name))`;

/**
 * One output row: (minute, row type, client, server, server type, connection type, failed,
 * duration, is a call), cast to one tuple type so the branches below make one array type.
 */
const row = (fields: SqlFragment) =>
  sql`CAST((${fields}), 'Tuple(DateTime(\\'UTC\\'), String, String, String, String, String, UInt8, Int64, UInt8)')`;

export function pairingSql(w: PairingWindow): SqlFragment {
  const svc = serviceName(w.envProjects ?? []);
  const readFrom = param.time(new Date(w.from.getTime() - PAIR_SLACK_MS));
  const readTo = param.time(new Date(w.to.getTime() + PAIR_SLACK_MS));
  const from = param.secondsUp(w.from);
  const to = param.secondsUp(w.to);
  const calls = sql`SELECT project_id, o.1 AS t, o.2 AS row_type, o.3 AS client, o.4 AS server, o.5 AS server_type,
      o.6 AS connection_type, o.7 AS failed, o.8 AS d, o.9 AS call
    FROM (
      SELECT project_id, nc, ns, c, s FROM (
        SELECT project_id, trace_id, pk,
          countIf(is_client) AS nc, countIf(NOT is_client) AS ns,
          anyIf((svc, start, duration, status_code = 'error', conn, vtype, vname), is_client) AS c,
          anyIf((svc, start, duration, status_code = 'error', conn, parent_id = 0), NOT is_client) AS s
        FROM (
          SELECT project_id, trace_id, kind IN ('client', 'producer') AS is_client,
            NOT is_client AND parent_id = 0 AS root, if(is_client OR root, id, parent_id) AS pk,
            ${svc} AS svc, time AS start, duration, status_code, parent_id, ${CONNECTION} AS conn,
            ${NAME_ATTR_COLUMNS}, ${NAME_PARTS},
            ${VIRTUAL_TYPE} AS vtype, ${VIRTUAL_NAME} AS vname
          FROM spans_index
          WHERE time >= ${readFrom} AND time < ${readTo} AND event_name = ''
            AND kind IN ('client', 'producer', 'server', 'consumer')
        )
        GROUP BY project_id, trace_id, root, pk
      )
    )
    ARRAY JOIN arrayConcat(
      multiIf(
        nc > 0 AND ns > 0,
          [${row(sql`toStartOfMinute(c.2), 'edge', c.1, s.1, 'service', if(c.5 = 'other', s.5, c.5), c.4 OR s.4, c.3, 1`)}],
        nc > 0 AND c.2 < ${param.time(w.expiredBefore)},
          [${row(sql`toStartOfMinute(c.2), 'edge', c.1, c.7, c.6, c.5, c.4, c.3, 1`)}],
        nc = 0 AND s.6,
          [${row(sql`toStartOfMinute(s.2), 'edge', ${param.string(USER_NODE)}, s.1, 'service', s.5, s.4, s.3, 1`)}],
        []),
      if(ns > 0, [${row(sql`toStartOfMinute(s.2), 'node', s.1, '', 'service', '', s.4, s.3, 1`)}], [])
    ) AS o
    WHERE o.1 >= ${from} AND o.1 < ${to}`;
  // Every service seen in a window: a node even when it serves no call.
  const seen = sql`SELECT project_id, toStartOfMinute(time) AS t, 'node' AS row_type, ${svc} AS client,
      '' AS server, 'service' AS server_type, '' AS connection_type, toUInt8(0) AS failed, toInt64(0) AS d, toUInt8(0) AS call
    FROM spans_index
    WHERE time >= ${param.time(w.from)} AND time < ${param.time(w.to)} AND event_name = ''
    GROUP BY project_id, t, client`;
  return sql`INSERT INTO service_graph_minutes
      (project_id, time, run, row_type, client, server, server_type, connection_type, calls, errors, duration)
    SELECT project_id, t, ${param.uint64(w.run)}, row_type, client, server, server_type, connection_type,
      sum(call), sumIf(1, call = 1 AND failed), quantilesTDigestStateIf(0.5, 0.99)(toFloat64(d), call = 1)
    FROM (${join([calls, seen], ' UNION ALL ')})
    GROUP BY project_id, t, row_type, client, server, server_type, connection_type`;
}
