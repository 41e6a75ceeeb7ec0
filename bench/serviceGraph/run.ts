import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { param, sql } from '../../packages/server/src/storage/sql';
import { createServiceGraphService } from '../../packages/server/src/tracing/serviceGraph/serviceGraph.service';
import { createServiceGraphJob } from '../../packages/server/src/tracing/serviceGraph/serviceGraphJob';
import { openBenchStore } from '../tracing/benchStore';

/**
 * `bench/serviceGraph` (issue 36): N spans (default 10M) of 30 services over the 24 h before now,
 * loaded straight into the embedded store; the service graph job writes every minute of them (the
 * cost of pairing, per minute of spans), then the graph over the 24 h is read `--runs` times
 * (p50, p95) through the same service the API calls, without HTTP.
 *
 *   node --import tsx bench/serviceGraph/run.ts [--spans 10000000] [--runs 15] [--data-dir bench/results/service-graph-data]
 *
 * A trace is 10 spans: a root server span of one of 30 services, its client span to a second
 * service's server span, that one's client span to a third service, a database client span there
 * (3 databases), a call to an uninstrumented payments API, a Kafka producer span, a database call
 * and an internal span at the root; ~1 % of spans fail. So 24 h hold 1,440 minutes of ~60 edges
 * and ~35 nodes each. The data directory is reused when it holds the spans.
 */
const { values: args } = parseArgs({
  options: {
    spans: { type: 'string', default: '10000000' },
    runs: { type: 'string', default: '15' },
    chunk: { type: 'string', default: '1000000' },
    'data-dir': { type: 'string' },
  },
});
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SPANS = Number(args.spans);
const RUNS = Number(args.runs);
const DATA_DIR = args['data-dir'] ?? join(ROOT, 'bench/results/service-graph-data');
const MARKER = join(DATA_DIR, 'bench-service-graph.json');
const PER_TRACE = 10;
const MINUTE = 60_000;
const DAY = 1440 * MINUTE;

/** Parent of each span of a trace, by its number in the trace (-1: the root). */
const PARENT = [-1, 0, 1, 2, 3, 4, 2, 0, 0, 0];

function insert(first: number, count: number, traces: number, startMs: number) {
  return sql`INSERT INTO spans_index (project_id, system, group_id, time, trace_id, id, parent_id, type, kind, name, event_name,
      display_name, duration, count, status_code, status_message, standalone, link_count, event_count, event_error_count,
      event_log_count, attr_keys, attr_values, deployment_environment, service_name, host_name, db_system, db_statement)
    WITH
      intDiv(n, ${param.uint32(PER_TRACE)}) AS t,
      n % ${param.uint32(PER_TRACE)} AS k,
      cityHash64(t, 11) % 30 AS s0,
      (s0 + 1 + cityHash64(t, 12) % 7) % 30 AS s1,
      (s1 + 1 + cityHash64(t, 13) % 7) % 30 AS s2,
      concat('svc-', toString(multiIf(k IN (0, 1, 7, 8, 9), s0, k IN (2, 3, 6), s1, s2))) AS service,
      multiIf(k IN (0, 2, 4), 'server', k = 7, 'producer', k = 8, 'internal', 'client') AS kind_,
      multiIf(k IN (5, 9), 'db', k = 7, 'messaging', k = 8, 'funcs', 'http') AS typ,
      cityHash64(n, 15) % 100 < 1 AS failed,
      toInt64(100000 * exp(7.5 * (cityHash64(n, 16) % 10000) / 10000.0)) AS dur,
      toDateTime64(${param.float64(startMs / 1000)} + t * ${param.float64(DAY / 1000 / traces)} + k * 0.001, 6, 'UTC') AS ts,
      reinterpretAsUUID(toFixedString(unhex(concat(hex(cityHash64(t, 1)), hex(cityHash64(t, 2)))), 16)) AS tid,
      ${param.uint32s(PARENT.map((p) => (p < 0 ? 0 : p)))}[k + 1] AS pk,
      multiIf(k IN (5, 9), ['db.name'], k = 6, ['peer.service', 'http.method'], k = 7, ['messaging.system', 'messaging.destination.name'],
        k IN (1, 3), ['http.method', 'server.address'], k IN (0, 2, 4), ['http.method', 'http.route'], []) AS keys,
      multiIf(k IN (5, 9), [concat('shop', toString(cityHash64(t, 14) % 3))], k = 6, ['payments', 'POST'], k = 7, ['kafka', 'orders'],
        k IN (1, 3), ['GET', 'svc.internal'], k IN (0, 2, 4), ['GET', '/api/items'], []) AS vals
    SELECT 1, concat(typ, ':', service), cityHash64(typ, service, k), ts, tid, cityHash64(n, 3),
      if(k = 0, toUInt64(0), cityHash64(t * ${param.uint32(PER_TRACE)} + pk, 3)), typ, kind_, concat('op', toString(k)), '',
      concat('op', toString(k)), dur, 1, if(failed, 'error', 'ok'), '', false, 0, 0, 0, 0, keys, vals, 'prod', service,
      concat('host-', toString(cityHash64(t, 17) % 50)), if(typ = 'db', 'postgresql', ''), if(typ = 'db', 'SELECT 1', '')
    FROM (SELECT number AS n FROM numbers(${param.uint32(first)}, ${param.uint32(count)}))`;
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

async function main() {
  mkdirSync(DATA_DIR, { recursive: true });
  const store = openBenchStore(DATA_DIR);
  await store.migrate();
  const endMs = Math.floor(Date.now() / MINUTE) * MINUTE;
  let startMs = endMs - DAY;
  if (!existsSync(MARKER)) {
    const traces = Math.ceil(SPANS / PER_TRACE);
    const t0 = performance.now();
    for (let first = 0; first < SPANS; first += Number(args.chunk))
      await store.command(insert(first, Math.min(Number(args.chunk), SPANS - first), traces, startMs));
    console.log(`loaded ${SPANS} spans in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    // The job: every minute of the 24 h, 60 windows a run, as a node catching up would.
    const job = createServiceGraphJob({
      telemetry: store,
      log: pino({ level: 'silent' }),
      waitMs: 2 * MINUTE,
      backfillMs: DAY + MINUTE,
    });
    const runs: number[] = [];
    const now = new Date(endMs + 5 * MINUTE);
    for (;;) {
      const t = performance.now();
      const r = await job.run(now);
      if (!r.from) break;
      runs.push(performance.now() - t);
      if (r.to!.getTime() >= endMs) break;
    }
    const total = runs.reduce((a, b) => a + b, 0);
    console.log(
      `job: ${runs.length} runs of 60 windows, ${(total / 1000).toFixed(1)} s in all, ${(total / (runs.length * 60)).toFixed(1)} ms a minute of ${Math.round(SPANS / 1440)} spans (p50 run ${pct(runs, 0.5).toFixed(0)} ms); load ${load()}`,
    );
    writeFileSync(MARKER, JSON.stringify({ spans: SPANS, startMs, endMs }));
  } else {
    ({ startMs } = JSON.parse((await import('node:fs')).readFileSync(MARKER, 'utf8')) as { startMs: number });
  }
  const [{ rows }] = await store.query<{ rows: string }>(
    sql`SELECT toString(count()) AS rows FROM service_graph_minutes`,
  );
  const service = createServiceGraphService(store);
  const range = { projectId: 1, gte: new Date(startMs), lt: new Date(startMs + DAY) };
  const measure = async (name: string, fn: () => Promise<unknown>) => {
    for (let i = 0; i < 3; i++) await fn();
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await fn();
      ms.push(performance.now() - t);
    }
    console.log(
      `${name}: p50 ${pct(ms, 0.5).toFixed(0)} ms, p95 ${pct(ms, 0.95).toFixed(0)} ms (${RUNS} runs; load ${load()})`,
    );
  };
  const g = await service.graph(range);
  console.log(`graph: ${g.nodes.length} nodes, ${g.edges.length} edges from ${rows} minute rows`);
  await measure('graph over 24 h', () => service.graph(range));
  await measure('node series over 24 h', () => service.series(range, { node: 'svc-3' }));
  await measure('edge series over 24 h', () =>
    service.series(range, { client: g.edges[0].client, server: g.edges[0].server }),
  );
  await store.close();
}

await main();
