import { TELEMETRY_MIGRATIONS } from './schema';

/** Runs DDL and reads applied versions; each store supplies its own connection. */
export interface MigrationRunner {
  exec(statement: string): Promise<void>;
  appliedVersions(): Promise<number[]>;
  record(version: number, name: string): Promise<void>;
}

export const MIGRATIONS_TABLE_DDL = `CREATE TABLE IF NOT EXISTS lantern_migrations (
  version UInt32, name String, applied_at DateTime DEFAULT now()
) ENGINE = MergeTree ORDER BY version`;

export async function applyMigrations(
  runner: MigrationRunner,
  ttl: { spansDays: number; metricsDays: number },
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
}
