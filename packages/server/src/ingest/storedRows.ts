import { join } from 'node:path';
import { sql } from '../storage/sql';
import { openChdbStore } from '../storage/telemetry';

/**
 * For integration tests: what a stopped server left in its embedded chDB, read straight from the
 * tables (not through any API, so a test checks storage itself). Open only after the server has
 * exited: chDB binds a data directory to one process. Not used by production code.
 */
export interface StoredRow {
  project_id: number;
  system: string;
  group_id: string;
  trace_id: string;
  id: string;
  parent_id: string;
  event_name: string;
  display_name: string;
  standalone: boolean;
  service_name: string;
  log_severity: string;
  log_message: string;
  exception_type: string;
  exception_message: string;
  attrs: Record<string, string>;
}

/** Every row of spans_index, oldest first. Call once per process (chDB binds one data directory). */
export async function readStoredRows(dataDir: string): Promise<StoredRow[]> {
  const store = openChdbStore({
    path: join(dataDir, 'ch'),
    ttl: { spansDays: 30, metricsDays: 90 },
    maxMemoryUsage: 2 * 1024 ** 3,
    maxThreads: 2,
  });
  try {
    const rows = await store.query<Omit<StoredRow, 'attrs'> & { attr_keys: string[]; attr_values: string[] }>(sql`
      SELECT project_id, system, group_id, replaceAll(toString(trace_id), '-', '') AS trace_id, id, parent_id, event_name,
        display_name, standalone, service_name, log_severity, log_message, exception_type, exception_message, attr_keys, attr_values
      FROM spans_index ORDER BY time, id`);
    return rows.map(({ attr_keys, attr_values, ...r }) => ({
      ...r,
      project_id: Number(r.project_id),
      standalone: Boolean(r.standalone),
      attrs: Object.fromEntries(attr_keys.map((k, i) => [k, attr_values[i]])),
    }));
  } finally {
    await store.close();
  }
}
