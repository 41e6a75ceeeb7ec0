/** What a migration's statements may depend on: the retention and how the store keeps its rollups. */
export interface MigrationContext {
  spansDays: number;
  metricsDays: number;
  /**
   * How the datapoint rollups (`datapoint_15m`, `datapoint_hours`) are kept: by materialized views
   * on every insert (a remote ClickHouse, possibly several writers; the default), or by the
   * application once per closed window (the embedded store, datapointRollups.ts).
   */
  rollups?: 'views' | 'application';
}

/** One versioned step of the telemetry schema (schema.ts, metricsSchema.ts), applied by migrate.ts. */
export interface TelemetryMigration {
  version: number;
  name: string;
  statements: (ctx: MigrationContext) => string[];
}
