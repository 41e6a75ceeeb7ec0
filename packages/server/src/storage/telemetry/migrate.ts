import type { SpanMetricDefinition } from '../../config';
import { sql } from '../sql';
import { TELEMETRY_MIGRATIONS } from './schema';
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

export async function applyMigrations(
  runner: MigrationRunner,
  ttl: { spansDays: number; metricsDays: number },
  spanMetrics: readonly SpanMetricDefinition[] = [],
): Promise<void> {
  await runner.exec(MIGRATIONS_TABLE_DDL);
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
    for (const stmt of m.statements(ttl)) await runner.exec(stmt);
    await runner.record(m.version, m.name);
  }
  // Retention follows the config on every start.
  await runner.exec(`ALTER TABLE spans_index MODIFY TTL toDate(time) + INTERVAL ${ttl.spansDays} DAY DELETE`);
  await runner.exec(`ALTER TABLE spans_data MODIFY TTL toDate(time) + INTERVAL ${ttl.spansDays} DAY DELETE`);
  for (const table of ['datapoint_minutes', 'datapoint_hours']) {
    await runner.exec(`ALTER TABLE ${table} MODIFY TTL toDate(time) + INTERVAL ${ttl.metricsDays} DAY DELETE`);
  }
  // Metrics from spans follow the config on every start. Nothing is ingested while this runs.
  for (const stmt of spanMetricViewStatements(spanMetrics, await runner.viewNames())) {
    try {
      await runner.exec(stmt);
    } catch (err) {
      throw new Error(`metrics_from_spans: the engine refused a view: ${(err as Error).message.split('\n')[0]}`);
    }
  }
}
