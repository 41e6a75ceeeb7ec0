/** One versioned step of the telemetry schema (schema.ts, metricsSchema.ts), applied by migrate.ts. */
export interface TelemetryMigration {
  version: number;
  name: string;
  statements: (ttl: { spansDays: number; metricsDays: number }) => string[];
}
