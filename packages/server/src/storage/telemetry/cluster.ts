/**
 * The telemetry DDL for a ClickHouse cluster (`storage.ch.cluster`, docs/scale-out.md). Every
 * statement of the migrations and of the metrics-from-spans views has a cluster form:
 *
 * - a table becomes `<name>_local` on every node (`ON CLUSTER`, the `Replicated` form of its
 *   engine, replicas of a shard kept by ClickHouse Keeper under `/clickhouse/tables/{shard}/…`)
 *   and `<name>`, a `Distributed` table over them. Queries and inserts use `<name>` with the same
 *   SQL as embedded; spans are sharded by trace, so a trace's rows live on one shard;
 * - a materialized view reads and writes the local tables of its node: an insert through a
 *   `Distributed` table lands in a shard's local table and runs that node's views there;
 * - ALTERs apply to the local tables (and column changes to the `Distributed` table too);
 * - backfills (`INSERT … SELECT`) run as they are, through the `Distributed` tables.
 *
 * A statement without a known form is refused, so a new migration cannot silently skip the
 * cluster (the golden test renders them all).
 */
export const CLUSTER_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Our tables (and the views' sources and targets). */
const TABLES = [
  'spans_index',
  'spans_data',
  'span_groups_1m',
  'span_groups_1h',
  'span_attr_groups_15m',
  'error_arrivals',
  'span_arrivals',
  'spans_sample',
  'span_systems_5m',
  'span_durations_5m',
  'service_graph_minutes',
  'service_graph_runs',
  'service_graph_hours',
  'service_graph_hour_runs',
  'datapoint_minutes',
  'datapoint_15m',
  'datapoint_hours',
  'metrics_catalog',
  'lantern_migrations',
];

/** Spans of a trace on one shard (the trace page reads one shard); everything else spread evenly. */
const SHARDING_KEY: Record<string, string> = {
  spans_index: 'cityHash64(trace_id)',
  spans_data: 'cityHash64(trace_id)',
  span_arrivals: 'cityHash64(trace_id)',
  spans_sample: 'cityHash64(trace_id)',
};

const local = (table: string) => `${table}_local`;
const CODEC = /\s+CODEC\((?:[^()]|\([^()]*\))*\)/g;

/** `FROM t` / `JOIN t` of our tables -> their local tables. */
function readLocal(select: string): string {
  return select.replace(
    new RegExp(`\\b(FROM|JOIN)\\s+(${TABLES.join('|')})\\b`, 'g'),
    (_, kw: string, t: string) => `${kw} ${local(t)}`,
  );
}

export function clusterStatements(statement: string, cluster: string): string[] {
  if (!CLUSTER_NAME.test(cluster))
    throw new Error(`storage.ch.cluster: ${JSON.stringify(cluster)} is not a cluster name`);
  const on = `ON CLUSTER ${cluster}`;
  const s = statement.trim();
  let m: RegExpExecArray | null;

  if ((m = /^CREATE TABLE IF NOT EXISTS (\w+) \(/.exec(s))) {
    const table = m[1];
    const engine = /ENGINE = (\w*)MergeTree(?:\(([^)]*)\))?/.exec(s);
    if (!engine) throw new Error(`cluster DDL: table ${table} has no MergeTree engine`);
    const args = [
      `'/clickhouse/tables/{shard}/{database}/${local(table)}'`,
      `'{replica}'`,
      ...(engine[2]?.trim() ? [engine[2].trim()] : []),
    ];
    const localDdl = s
      .replace(`CREATE TABLE IF NOT EXISTS ${table} (`, `CREATE TABLE IF NOT EXISTS ${local(table)} ${on} (`)
      .replace(engine[0], `ENGINE = Replicated${engine[1]}MergeTree(${args.join(', ')})`);
    const distributed = `CREATE TABLE IF NOT EXISTS ${table} ${on} AS ${local(table)} ENGINE = Distributed(${cluster}, currentDatabase(), ${local(table)}, ${SHARDING_KEY[table] ?? 'rand()'})`;
    return [localDdl, distributed];
  }
  if ((m = /^CREATE MATERIALIZED VIEW (IF NOT EXISTS )?(\w+) TO (\w+) AS\b/.exec(s))) {
    const [head, ifNotExists = '', view, target] = m;
    return [
      `CREATE MATERIALIZED VIEW ${ifNotExists}${view} ${on} TO ${local(target)} AS${readLocal(s.slice(head.length))}`,
    ];
  }
  if ((m = /^ALTER TABLE (\w+) ([\s\S]*)$/.exec(s))) {
    const [, table, action] = m;
    const out = [`ALTER TABLE ${local(table)} ${on} ${action}`];
    // The Distributed table mirrors the columns (without codecs: it stores nothing).
    if (/^(ADD|DROP|MODIFY) COLUMN\b/.test(action)) out.push(`ALTER TABLE ${table} ${on} ${action.replace(CODEC, '')}`);
    return out;
  }
  if ((m = /^DROP VIEW IF EXISTS (\w+)$/.exec(s))) return [`DROP VIEW IF EXISTS ${m[1]} ${on}`];
  if (/^INSERT INTO \w+ /.test(s)) return [s];
  throw new Error(`cluster DDL: no cluster form for: ${s.slice(0, 80)}`);
}
