import { sql } from '../sql';
import { clusterStatements } from './cluster';
import type { MigrationContext } from './migration';
import { SPANS_DATA_RECOMPRESS, TELEMETRY_MIGRATIONS } from './schema';
import { spanMetricViewStatements } from './spanMetricViews';

/** Runs DDL and reads applied versions; each store supplies its own connection. */
export interface MigrationRunner {
  exec(statement: string): Promise<void>;
  appliedVersions(): Promise<number[]>;
  record(version: number, name: string): Promise<void>;
  /** Names of the materialized views in the database. */
  viewNames(): Promise<string[]>;
}

export const VIEW_NAMES_SQL = sql`SELECT name FROM system.tables WHERE database = currentDatabase() AND engine = 'MaterializedView'`;

export const MIGRATIONS_TABLE_DDL = `CREATE TABLE IF NOT EXISTS lantern_migrations (
  version UInt32, name String, applied_at DateTime DEFAULT now()
) ENGINE = MergeTree ORDER BY version`;

type Ttl = { spansDays: number; metricsDays: number };
type Rollups = NonNullable<MigrationContext['rollups']>;

/** Retention follows the config on every start. */
const retentionStatements = (ttl: Ttl): string[] => [
  // The span group rollups keep what the spans keep: a group's chart never outlives its spans.
  ...[
    'spans_index',
    'spans_data',
    'span_groups_1m',
    'span_groups_1h',
    'span_attr_groups_15m',
    'service_graph_minutes',
    'service_graph_runs',
    'service_graph_hours',
    'service_graph_hour_runs',
    'spans_sample',
    'span_systems_5m',
    'span_durations_5m',
  ].map(
    (table) =>
      `ALTER TABLE ${table} MODIFY TTL toDate(time) + INTERVAL ${ttl.spansDays} DAY DELETE` +
      (table === 'spans_data' ? `, ${SPANS_DATA_RECOMPRESS}` : ''),
  ),
  ...['datapoint_minutes', 'datapoint_15m', 'datapoint_hours'].map(
    (table) => `ALTER TABLE ${table} MODIFY TTL toDate(time) + INTERVAL ${ttl.metricsDays} DAY DELETE`,
  ),
];

/**
 * Everything a fresh database gets, in order (`lantern schema print`: a remote ClickHouse, so
 * rollups by views unless `rollups`); the cluster form with `cluster`.
 */
export function freshSchema(ttl: Ttl, cluster = '', rollups: Rollups = 'views'): string[] {
  const all = [
    MIGRATIONS_TABLE_DDL,
    ...TELEMETRY_MIGRATIONS.flatMap((m) => m.statements({ ...ttl, rollups })),
    ...retentionStatements(ttl),
  ];
  return cluster ? all.flatMap((s) => clusterStatements(s, cluster)) : all;
}

/**
 * `cluster`: a ClickHouse cluster name; every statement then runs in its cluster form (cluster.ts).
 * `rollups`: how the store keeps the datapoint rollups (MigrationContext).
 */
export async function applyMigrations(
  runner: MigrationRunner,
  ttl: Ttl,
  cluster = '',
  rollups: Rollups = 'views',
): Promise<void> {
  const exec = async (statement: string) => {
    for (const s of cluster ? clusterStatements(statement, cluster) : [statement]) await runner.exec(s);
  };
  await exec(MIGRATIONS_TABLE_DDL);
  const applied = new Set(await runner.appliedVersions());
  const known = new Set(TELEMETRY_MIGRATIONS.map((m) => m.version));
  const unknown = [...applied].filter((v) => !known.has(v));
  if (unknown.length) {
    throw new Error(
      `telemetry database has migrations ${unknown.join(', ')} this Lantern version does not know; use a newer Lantern or a fresh data directory`,
    );
  }
  for (const m of TELEMETRY_MIGRATIONS) {
    if (applied.has(m.version)) continue;
    for (const stmt of m.statements({ ...ttl, rollups })) await exec(stmt);
    await runner.record(m.version, m.name);
  }
  for (const stmt of retentionStatements(ttl)) await exec(stmt);
  // Metrics from spans are computed before the engine now: the views of earlier versions go.
  for (const stmt of spanMetricViewStatements(await runner.viewNames())) await exec(stmt);
}
