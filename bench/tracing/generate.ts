import { param, sql, type SqlFragment } from '../../packages/server/src/storage/sql';

/**
 * Generates realistic span rows inside the engine (INSERT ... SELECT FROM numbers()) so 10M spans
 * load in minutes. Both tables get the same rows, derived deterministically from the row number:
 *
 * - traces of 20 rows (spans_per_trace) spread evenly over the 24 h before `endMs`;
 * - row 0 of a trace: an HTTP server span of one of 10 services on one of 40 routes;
 *   the others alternate db (postgresql, 30 statements), rpc, messaging (kafka) and funcs spans,
 *   and the last row is a log event (log:error on failed traces, log:info otherwise);
 * - durations log-uniform 0.1 ms .. 400 ms (roots x5), ~2% errors;
 * - attributes: service.name, host.name (50 hosts), deployment.environment on every span; as
 *   instrumentations set them, the rest only on the spans they describe: http.route,
 *   http.status_code and enduser.id (10,000 users) on the HTTP server spans, db.name on db spans,
 *   rpc.service and rpc.method on rpc spans, messaging.destination.name on messaging spans,
 *   code.function on funcs spans (none on the log events) — the arrays hold these non-column ones.
 *
 * Plus one trace of `bigTrace` spans (a realistic fan-out tree) for the trace page.
 */
export const SPANS_PER_TRACE = 20;

const columns = (totalTraces: number, startMs: number, rangeMs: number) => sql`
  WITH
    intDiv(n, 20) AS t,
    n % 20 AS k,
    cityHash64(t, 11) % 10 AS svc,
    concat('svc-', toString(svc)) AS service,
    concat('/api/v1/resource', toString(cityHash64(t, 12) % 40)) AS route,
    cityHash64(t, 13) % 100 < 2 AS failed_trace,
    multiIf(k = 0, 'http', k = 19, 'log', k % 4 = 1, 'db', k % 4 = 2, 'rpc', k % 4 = 3, 'messaging', 'funcs') AS typ,
    multiIf(typ = 'http', concat('http:', service), typ = 'db', 'db:postgresql', typ = 'rpc', concat('rpc:svc-', toString((svc + k) % 10)),
            typ = 'messaging', 'messaging:kafka', typ = 'log', if(failed_trace, 'log:error', 'log:info'), 'funcs') AS sys,
    multiIf(typ = 'http', concat('GET ', route), typ = 'db', concat('SELECT table', toString(cityHash64(n, 14) % 30)),
            typ = 'rpc', concat('Service', toString((svc + k) % 10), '/Call'), typ = 'messaging', 'orders process',
            typ = 'log', 'log', concat('handler', toString(k))) AS span_name,
    (typ = 'log' OR (k = 0 AND failed_trace) OR cityHash64(n, 15) % 100 < 1) AS is_error,
    if(typ = 'log', toInt64(0), toInt64(100000 * exp(8.3 * (cityHash64(n, 16) % 10000) / 10000.0) * if(k = 0, 5, 1))) AS dur,
    toDateTime64(${param.float64(startMs / 1000)} + (t * ${param.float64(rangeMs / 1000 / totalTraces)}) + k * 0.001, 6, 'UTC') AS ts,
    reinterpretAsUUID(toFixedString(unhex(concat(hex(cityHash64(t, 1)), hex(cityHash64(t, 2)))), 16)) AS tid,
    cityHash64(n, 3) AS sid,
    if(k = 0, toUInt64(0), cityHash64(t * 20 + intDiv(k - 1, 2), 3)) AS pid,
    concat('host-', toString(cityHash64(t, 17) % 50)) AS host,
    if(is_error, '500', '200') AS status,
    concat('user-', toString(cityHash64(t, 18) % 10000)) AS user,
    multiIf(typ = 'http', ['http.route', 'http.status_code', 'enduser.id'], typ = 'db', ['db.name'],
            typ = 'rpc', ['rpc.service', 'rpc.method'], typ = 'messaging', ['messaging.destination.name'],
            typ = 'funcs', ['code.function'], []) AS keys,
    multiIf(typ = 'http', [route, status, user], typ = 'db', ['shop'], typ = 'rpc', [concat('Service', toString((svc + k) % 10)), 'Call'],
            typ = 'messaging', ['orders'], typ = 'funcs', [span_name], []) AS vals`;

function indexInsert(
  first: number,
  count: number,
  totalTraces: number,
  startMs: number,
  rangeMs: number,
  projectId: number,
): SqlFragment {
  return sql`INSERT INTO spans_index (project_id, system, group_id, time, trace_id, id, parent_id, type, kind, name, event_name, display_name,
      duration, count, status_code, status_message, standalone, link_count, event_count, event_error_count, event_log_count,
      attr_keys, attr_values, deployment_environment, service_name, host_name, db_system, db_statement)
    ${columns(totalTraces, startMs, rangeMs)}
    SELECT ${param.uint32(projectId)}, sys, cityHash64(sys, span_name), ts, tid, sid, pid, typ,
      multiIf(k = 0, 'server', typ IN ('db', 'rpc'), 'client', typ = 'messaging', 'consumer', 'internal'),
      span_name, if(typ = 'log', 'log', ''), span_name, dur, 1, if(is_error, 'error', 'ok'), if(is_error, 'failed', ''), false, 0,
      0, 0, 0,
      keys, vals, 'prod', service, host,
      if(typ = 'db', 'postgresql', ''), if(typ = 'db', concat(span_name, ' WHERE id = $1'), '')
    FROM (SELECT number AS n FROM numbers(${param.uint32(first)}, ${param.uint32(count)}))`;
}

function dataInsert(
  first: number,
  count: number,
  totalTraces: number,
  startMs: number,
  rangeMs: number,
  projectId: number,
): SqlFragment {
  return sql`INSERT INTO spans_data (project_id, trace_id, id, parent_id, time, is_event, data)
    ${columns(totalTraces, startMs, rangeMs)}
    SELECT ${param.uint32(projectId)}, tid, sid, pid, ts, typ = 'log',
      concat('{"standalone":false,"type":"', typ, '","system":"', sys, '","groupId":"', toString(cityHash64(sys, span_name)),
        '","kind":"', multiIf(k = 0, 'server', typ IN ('db', 'rpc'), 'client', typ = 'messaging', 'consumer', 'internal'),
        '","name":"', span_name, '","eventName":"', if(typ = 'log', 'log', ''), '","displayName":"', span_name,
        '","durationNs":', toString(dur), ',"statusCode":"', if(is_error, 'error', 'ok'), '","statusMessage":"', if(is_error, 'failed', ''),
        '","attrs":{"service.name":"', service, '","host.name":"', host, '","deployment.environment":"prod"',
        arrayStringConcat(arrayMap((key, v) -> concat(',"', key, '":', if(key = 'http.status_code', v, concat('"', v, '"'))), keys, vals)),
        '},"links":[]}')
    FROM (SELECT number AS n FROM numbers(${param.uint32(first)}, ${param.uint32(count)}))`;
}

export function generationStatements(opts: {
  spans: number;
  endMs: number;
  rangeMs: number;
  chunk: number;
  projectId: number;
}): SqlFragment[] {
  const totalTraces = Math.ceil(opts.spans / SPANS_PER_TRACE);
  const startMs = opts.endMs - opts.rangeMs;
  const out: SqlFragment[] = [];
  for (let first = 0; first < opts.spans; first += opts.chunk) {
    const count = Math.min(opts.chunk, opts.spans - first);
    out.push(indexInsert(first, count, totalTraces, startMs, opts.rangeMs, opts.projectId));
    out.push(dataInsert(first, count, totalTraces, startMs, opts.rangeMs, opts.projectId));
  }
  return out;
}

/**
 * What a span of an instrumented web service carries besides `service.name` and `enduser.id` (`#`:
 * the span's number), for `bigTraceStatements({ rich: true })`: 20 attributes, ~700 bytes a span.
 */
const RICH_ATTRS = [
  '"service.version":"1.4.2"',
  '"host.name":"web-#"',
  '"deployment.environment":"production"',
  '"telemetry.sdk.language":"nodejs"',
  '"telemetry.sdk.name":"opentelemetry"',
  '"telemetry.sdk.version":"1.30.0"',
  '"process.pid":#',
  '"process.runtime.name":"nodejs"',
  '"process.runtime.version":"20.11.1"',
  '"http.request.method":"GET"',
  '"http.route":"/api/products/:id"',
  '"url.full":"https://shop.example/api/products/#?q=abc"',
  '"http.response.status_code":200',
  '"server.address":"shop.example"',
  '"server.port":443',
  '"network.protocol.version":"1.1"',
  '"user_agent.original":"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)"',
  '"db.statement":"SELECT id, name, price FROM products WHERE id = $1 /* # */"',
].join(',');

/**
 * One trace of `spans` rows: a fan-out tree (each span has up to 8 children), 1 s long; with
 * `rich`, each span has the 20 attributes of RICH_ATTRS instead of 2.
 */
export function bigTraceStatements(opts: {
  spans: number;
  traceHex: string;
  startMs: number;
  projectId: number;
  rich?: boolean;
}): SqlFragment[] {
  const uuid = `${opts.traceHex.slice(0, 8)}-${opts.traceHex.slice(8, 12)}-${opts.traceHex.slice(12, 16)}-${opts.traceHex.slice(16, 20)}-${opts.traceHex.slice(20)}`;
  const w = sql`WITH number AS n, n + 1 AS sid, if(n = 0, toUInt64(0), intDiv(n - 1, 8) + 1) AS pid,
      toDateTime64(${param.float64(opts.startMs / 1000)} + n * 0.0005, 6, 'UTC') AS ts, toInt64(1000000000 - n * 900000) AS dur,
      if(n = 0, 'http:svc-0', if(n % 3 = 0, 'db:postgresql', 'funcs')) AS sys, concat('op', toString(n % 50)) AS span_name`;
  return [
    sql`INSERT INTO spans_index (project_id, system, group_id, time, trace_id, id, parent_id, type, kind, name, display_name, duration, count, status_code, attr_keys, attr_values, service_name)
      ${w} SELECT ${param.uint32(opts.projectId)}, sys, cityHash64(sys, span_name), ts, toUUID(${param.string(uuid)}), sid, pid, splitByChar(':', sys)[1], 'internal', span_name, span_name, dur, 1, 'ok',
        ['enduser.id'], ['user-1'], 'svc-0' FROM numbers(${param.uint32(opts.spans)})`,
    sql`INSERT INTO spans_data (project_id, trace_id, id, parent_id, time, is_event, data)
      ${w} SELECT ${param.uint32(opts.projectId)}, toUUID(${param.string(uuid)}), sid, pid, ts, false,
        concat('{"standalone":false,"type":"', splitByChar(':', sys)[1], '","system":"', sys, '","groupId":"', toString(cityHash64(sys, span_name)),
          '","kind":"internal","name":"', span_name, '","eventName":"","displayName":"', span_name, '","durationNs":', toString(dur),
          ',"statusCode":"ok","statusMessage":"","attrs":{"service.name":"svc-0","enduser.id":"user-1"',
          replaceAll(${param.string(opts.rich ? ',' + RICH_ATTRS : '')}, '#', toString(n)), '},"links":[]}')
      FROM numbers(${param.uint32(opts.spans)})`,
  ];
}
