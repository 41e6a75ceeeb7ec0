import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { ConfigSchema, type Config } from './schema';

/**
 * Environment variables that override single keys of lantern.yml. Kept as an explicit table
 * (documented in docs/configuration.md) rather than a name-mangling rule, so every variable is
 * discoverable and typos are not silently ignored.
 */
export const ENV_KEYS: Record<string, { path: string[]; type: 'string' | 'int' }> = {
  LANTERN_HTTP_ADDR: { path: ['listen', 'http', 'addr'], type: 'string' },
  LANTERN_GRPC_ADDR: { path: ['listen', 'grpc', 'addr'], type: 'string' },
  LANTERN_SITE_URL: { path: ['site', 'url'], type: 'string' },
  LANTERN_DATA_DIR: { path: ['data_dir'], type: 'string' },
  LANTERN_CH_URL: { path: ['storage', 'ch', 'url'], type: 'string' },
  LANTERN_CH_CLUSTER: { path: ['storage', 'ch', 'cluster'], type: 'string' },
  LANTERN_DB_URL: { path: ['storage', 'db', 'url'], type: 'string' },
  LANTERN_SECRET_KEY: { path: ['secret_key'], type: 'string' },
  LANTERN_SPANS_TTL_DAYS: { path: ['retention', 'spans_days'], type: 'int' },
  LANTERN_METRICS_TTL_DAYS: { path: ['retention', 'metrics_days'], type: 'int' },
  LANTERN_INGEST_BATCH_ROWS: { path: ['ingest', 'batch_rows'], type: 'int' },
  LANTERN_INGEST_FLUSH_INTERVAL_MS: { path: ['ingest', 'flush_interval_ms'], type: 'int' },
  LANTERN_INGEST_QUEUE_ROWS: { path: ['ingest', 'queue_rows'], type: 'int' },
  LANTERN_METRICS_FOLD_MAX_ROWS: { path: ['metrics', 'fold_max_rows'], type: 'int' },
  LANTERN_INGEST_QUEUE_BYTES: { path: ['ingest', 'queue_bytes'], type: 'int' },
  LANTERN_INGEST_MAX_QUEUE_WAIT_MS: { path: ['ingest', 'max_queue_wait_ms'], type: 'int' },
  LANTERN_INGEST_MAX_BODY_BYTES: { path: ['ingest', 'max_body_bytes'], type: 'int' },
  LANTERN_INGEST_WORKERS: { path: ['ingest', 'workers'], type: 'int' },
  LANTERN_INGEST_MAX_ROWS_PER_REQUEST: { path: ['ingest', 'max_rows_per_request'], type: 'int' },
  LANTERN_INGEST_STATS_LOG_INTERVAL_MS: { path: ['ingest', 'stats_log_interval_ms'], type: 'int' },
  LANTERN_LOG_LEVEL: { path: ['log_level'], type: 'string' },
  LANTERN_ALERTING_CHECK_INTERVAL_SECONDS: { path: ['alerting', 'check_interval_seconds'], type: 'int' },
  LANTERN_ALERTING_LEASE_SECONDS: { path: ['alerting', 'lease_seconds'], type: 'int' },
  LANTERN_ALERTING_METRIC_DELAY_SECONDS: { path: ['alerting', 'metric_delay_seconds'], type: 'int' },
  LANTERN_ALERTING_ERROR_SCAN_LAG_SECONDS: { path: ['alerting', 'error_scan_lag_seconds'], type: 'int' },
  LANTERN_PROMETHEUS_MAX_SERIES: { path: ['prometheus', 'max_series'], type: 'int' },
  LANTERN_PROMETHEUS_TIMEOUT_SECONDS: { path: ['prometheus', 'timeout_seconds'], type: 'int' },
  LANTERN_SERVICE_GRAPH_WAIT_SECONDS: { path: ['service_graph', 'wait_seconds'], type: 'int' },
  LANTERN_SERVICE_GRAPH_INTERVAL_SECONDS: { path: ['service_graph', 'interval_seconds'], type: 'int' },
  LANTERN_SPAN_ROLLUPS_INTERVAL_SECONDS: { path: ['span_rollups', 'interval_seconds'], type: 'int' },
  LANTERN_TAIL_MAX_STREAMS: { path: ['tail', 'max_streams'], type: 'int' },
  LANTERN_TAIL_MAX_STREAMS_PER_USER: { path: ['tail', 'max_streams_per_user'], type: 'int' },
  LANTERN_TAIL_MAX_ROWS_PER_SECOND: { path: ['tail', 'max_rows_per_second'], type: 'int' },
  LANTERN_TAIL_POLL_MS: { path: ['tail', 'poll_ms'], type: 'int' },
  LANTERN_TAIL_SETTLE_MS: { path: ['tail', 'settle_ms'], type: 'int' },
  LANTERN_TAIL_HEARTBEAT_SECONDS: { path: ['tail', 'heartbeat_seconds'], type: 'int' },
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export interface LoadConfigOptions {
  /** Path to lantern.yml; when absent only defaults and env apply. */
  file?: string;
  env?: Record<string, string | undefined>;
}

/** Defaults, then the YAML file, then LANTERN_* variables; every invalid key is reported at once. */
export function loadConfig({ file, env = process.env }: LoadConfigOptions = {}): Config {
  const problems: string[] = [];
  let raw: Record<string, unknown> = {};
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new ConfigError([`cannot read ${file}: ${(err as Error).message}`]);
    }
    let doc: unknown;
    try {
      doc = parseYaml(text);
    } catch (err) {
      throw new ConfigError([`${file} is not valid YAML: ${(err as Error).message}`]);
    }
    if (doc !== null && doc !== undefined) {
      if (typeof doc !== 'object' || Array.isArray(doc)) throw new ConfigError([`${file} must be a YAML mapping`]);
      raw = doc as Record<string, unknown>;
    }
  }
  for (const [name, { path, type }] of Object.entries(ENV_KEYS)) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    if (type === 'int' && !/^\d+$/.test(value)) {
      problems.push(`${name}: must be a whole number, got ${JSON.stringify(value)}`);
      continue;
    }
    setPath(raw, path, type === 'int' ? Number(value) : value);
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path.length ? issue.path.join('.') : '(root)';
      problems.push(`${key}: ${issue.message}`);
    }
  }
  if (problems.length || !parsed.success) throw new ConfigError(problems);
  return parsed.data;
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]] = value;
}
