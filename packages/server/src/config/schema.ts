import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { authSchema } from './authConfig';
import { metricsFromSpansSchema } from '../metricsFromSpans';

/**
 * The whole configuration, with defaults. Keys are snake_case as they appear in lantern.yml;
 * `config/lantern.example.yml` documents each one. Loaded by `loadConfig` (defaults, then the
 * file, then LANTERN_* variables).
 */
const listenAddr = z
  .string()
  .regex(/^(\[[0-9a-fA-F:]+\]|[^:\s]*):\d{1,5}$/, 'must be HOST:PORT, e.g. 0.0.0.0:14318 or :14318');

const project = z
  .object({
    id: z.number().int().min(1).max(0xffffffff),
    name: z.string().min(1),
    tokens: z.array(z.string().min(8, 'tokens must be at least 8 characters')).min(1),
    pinned_attrs: z.array(z.string()).default(['service.name', 'host.name', 'deployment.environment']),
    group_by_env: z.boolean().default(false),
    group_funcs_by_service: z.boolean().default(false),
  })
  .strict();

const user = z
  .object({
    name: z.string().min(1),
    email: z.string().email(),
    password: z.string().min(1),
  })
  .strict();

export const ConfigSchema = z
  .object({
    listen: z
      .object({
        http: z
          .object({ addr: listenAddr.default('0.0.0.0:14318') })
          .strict()
          .prefault({}),
        grpc: z
          .object({ addr: listenAddr.default('0.0.0.0:14317') })
          .strict()
          .prefault({}),
      })
      .strict()
      .prefault({}),
    site: z
      /** Absent: http://localhost:<the port of listen.http.addr> (filled in below). */
      .object({ url: z.string().url().optional() })
      .strict()
      .prefault({}),
    data_dir: z.string().min(1).default('data'),
    storage: z
      .object({
        ch: z
          .object({
            /** Empty: embedded chDB under `<data_dir>/ch`. Else a ClickHouse HTTP URL. */
            url: z.string().default(''),
            /**
             * A ClickHouse cluster name (remote store only): tables are created ON CLUSTER as
             * Replicated*MergeTree with Distributed tables over them (docs/scale-out.md).
             */
            cluster: z
              .string()
              .regex(/^([A-Za-z_][A-Za-z0-9_]*)?$/, 'a cluster name is letters, digits and _')
              .default(''),
            max_memory_usage: z
              .number()
              .int()
              .positive()
              .default(4 * 1024 ** 3),
            max_threads: z.number().int().positive().default(2),
          })
          .strict()
          .refine((ch) => !ch.cluster || ch.url, {
            message: 'cluster needs url: a cluster is a remote ClickHouse',
            path: ['cluster'],
          })
          .prefault({}),
        db: z
          .object({
            /** Empty: SQLite at `<data_dir>/lantern.db`. Else a postgres:// URL. */
            url: z.string().default(''),
          })
          .strict()
          .prefault({}),
      })
      .strict()
      .prefault({}),
    projects: z
      .array(project)
      .min(1)
      .default([
        {
          id: 1,
          name: 'Lantern',
          tokens: ['project1_secret_token'],
          pinned_attrs: ['service.name', 'host.name', 'deployment.environment'],
          group_by_env: false,
          group_funcs_by_service: false,
        },
        {
          id: 2,
          name: 'My project',
          tokens: ['project2_secret_token'],
          pinned_attrs: ['service.name', 'host.name', 'deployment.environment'],
          group_by_env: false,
          group_funcs_by_service: false,
        },
      ])
      .refine((ps) => new Set(ps.map((p) => p.id)).size === ps.length, 'project ids must be unique')
      .refine((ps) => {
        const all = ps.flatMap((p) => p.tokens);
        return new Set(all).size === all.length;
      }, 'a token may belong to one project only'),
    users: z
      .array(user)
      .min(1)
      .default([{ name: 'Admin', email: 'admin@lantern.local', password: 'lantern' }])
      .refine((us) => new Set(us.map((u) => u.email.toLowerCase())).size === us.length, 'user e-mails must be unique'),
    /** Single sign-on (OIDC), login rate limiting, avatars (config/authConfig.ts). */
    auth: authSchema,
    /** Signs session tokens. Empty: generated once and kept in `<data_dir>/secret.key`. */
    secret_key: z.string().default(''),
    retention: z
      .object({
        spans_days: z.number().int().min(1).default(30),
        metrics_days: z.number().int().min(1).default(90),
      })
      .strict()
      .prefault({}),
    ingest: z
      .object({
        /** A batch is written as soon as it holds this many rows... */
        batch_rows: z.number().int().min(1).default(20_000),
        /** ...a smaller one once this long has passed since the previous write started. */
        flush_interval_ms: z.number().int().min(1).default(200),
        /** Rows queued (not yet committed) before new requests are refused with 429. */
        queue_rows: z.number().int().min(1).default(200_000),
        /** Bytes of encoded rows queued before new requests are refused with 429. */
        queue_bytes: z
          .number()
          .int()
          .min(1024)
          .default(256 * 1024 ** 2),
        /**
         * Longest a newly queued row may expect to wait (queued rows / measured insert rate) before
         * requests are refused with 429: shorter than clients' export timeouts (10 s in the SDKs).
         */
        max_queue_wait_ms: z.number().int().min(100).default(5_000),
        /** Largest request body, applied after decompression (413 above it). */
        max_body_bytes: z
          .number()
          .int()
          .min(1024)
          .default(32 * 1024 ** 2),
        /** Worker threads that decode, normalise and encode requests; 0 runs them on the event loop. */
        workers: z.number().int().min(0).max(64).default(availableParallelism()),
        /**
         * Most rows one request may produce (spans + span events, or log records); 413 above it.
         * Rows, not spans: memory grows with every row (an event row is a full row), and a small
         * body can hold many tiny events. 200,000 (= queue_rows, so a request fits the queue)
         * takes a Collector batch of 10,000 spans with up to 19 events each.
         */
        max_rows_per_request: z.number().int().min(1).default(200_000),
        /** How often the server logs its ingest counters (`ingest stats` line). */
        stats_log_interval_ms: z.number().int().min(1000).default(60_000),
      })
      .strict()
      .prefault({}),
    alerting: z
      .object({
        /**
         * How often the node holding the evaluator lease scans for new errors (metric monitors look at
         * each minute once, metric_delay_seconds after it ends, whatever this is).
         */
        check_interval_seconds: z.number().int().min(1).max(60).default(60),
        /**
         * How long after a minute ends its metric monitors look at it: the minute's datapoints must be
         * in by then (SDKs export every 10-60 s).
         */
        metric_delay_seconds: z.number().int().min(0).max(59).default(30),
        /**
         * How far error scans stay behind the telemetry store's clock, so that no insert still running
         * when a scan reads can commit spans into a window already scanned.
         */
        error_scan_lag_seconds: z.number().int().min(1).max(600).default(30),
        /**
         * How long the evaluator lease lasts without renewal (the holder renews it every few seconds):
         * after a node stops, another takes over evaluation and delivery within this time.
         */
        lease_seconds: z.number().int().min(10).max(3600).default(90),
      })
      .strict()
      .prefault({}),
    notifications: z
      .object({
        /**
         * Network classes notification URLs may reach. Empty (the default) refuses URLs that are or
         * resolve to loopback, link-local or private addresses (SSRF guard).
         */
        allow_networks: z.array(z.enum(['loopback', 'link_local', 'private'])).default([]),
        smtp: z
          .object({
            enabled: z.boolean().default(false),
            host: z.string().default('localhost'),
            port: z.number().int().min(1).max(65535).default(25),
            /** true: TLS from the first byte (port 465); false: STARTTLS when the server offers it. */
            tls: z.boolean().default(false),
            username: z.string().default(''),
            password: z.string().default(''),
            from: z.string().default('no-reply@localhost'),
          })
          .strict()
          .prefault({}),
      })
      .strict()
      .prefault({}),
    metrics: z
      .object({
        /**
         * Attribute keys removed from every OTLP and Prometheus datapoint before its series is
         * named (reference `metrics.drop_attrs`): the SDK's own description would otherwise be on
         * every series and in every attribute list without ever telling series apart.
         */
        drop_attrs: z
          .array(z.string().min(1))
          .default(['telemetry.sdk.language', 'telemetry.sdk.name', 'telemetry.sdk.version']),
        /**
         * Rows (series x open minutes) the embedded store's datapoint fold holds in memory before
         * it writes them all at once (docs/decisions/metrics-ingest-fold.md); ~0.4 KB a row.
         */
        fold_max_rows: z.number().int().min(1000).max(10_000_000).default(200_000),
      })
      .strict()
      .prefault({}),
    /** The Prometheus query API (metrics/promql/, docs/prometheus.md). */
    prometheus: z
      .object({
        /** Series one PromQL query may read (after push-down); more answers 422. */
        max_series: z.number().int().min(1).max(10_000_000).default(50_000),
        /** A PromQL query's longest run (a request's `timeout` can only shorten it); then 503. */
        timeout_seconds: z.number().int().min(1).max(3600).default(120),
      })
      .strict()
      .prefault({}),
    /** The live tail of logs and spans (tracing/tail/, docs/decisions/live-tail.md). */
    tail: z
      .object({
        /** Open live tails on this server (every user); one more answers 429. */
        max_streams: z.number().int().min(1).max(10_000).default(100),
        /** Open live tails of one user on this server; one more answers 429. */
        max_streams_per_user: z.number().int().min(1).max(1000).default(5),
        /** Rows a live tail sends per second at most; past it the rows are skipped and counted. */
        max_rows_per_second: z.number().int().min(1).max(10_000).default(100),
        /** How often the server looks for new rows (one query for all open tails, more only when rows arrived). */
        poll_ms: z.number().int().min(100).max(60_000).default(1000),
        /**
         * How far a tail stays behind the store's clock: a row is stamped when its insert starts and
         * visible when it commits, so the tail reads only rows whose insert started this long ago.
         */
        settle_ms: z.number().int().min(0).max(600_000).default(2000),
        /** A comment line keeps idle connections open (proxies close silent ones); the session is checked then too. */
        heartbeat_seconds: z.number().int().min(1).max(300).default(15),
      })
      .strict()
      .prefault({}),
    /** The spans' per-system 5-minute rows (storage/telemetry/spanSystemRollup.ts). */
    span_rollups: z
      .object({
        /** How often the node holding the evaluator lease rolls the closed windows up. */
        interval_seconds: z.number().int().min(1).max(3600).default(60),
      })
      .strict()
      .prefault({}),
    /** The service graph (tracing/serviceGraph/): per-minute calls between services, built from the spans. */
    service_graph: z
      .object({
        /**
         * How long a client span waits for its server half (another export, batch or node) before
         * it counts as a call to a virtual node (a database, a queue, an uninstrumented server).
         * Until then its minute is rewritten on every run.
         */
        wait_seconds: z.number().int().min(0).max(3600).default(120),
        /** How often the node holding the evaluator lease writes the closed minutes. */
        interval_seconds: z.number().int().min(1).max(3600).default(60),
      })
      .strict()
      .prefault({}),
    /** Metrics derived from spans at ingest (metricsFromSpans/metricsFromSpans.ts). */
    metrics_from_spans: metricsFromSpansSchema,
    log_level: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  })
  .strict()
  // Without a site.url the DSNs, alert links and SSO callbacks name the port Lantern listens on.
  .transform(({ site, ...rest }) => ({
    ...rest,
    site: { url: site.url ?? `http://localhost:${parseListenAddr(rest.listen.http.addr).port}` },
  }));

/** Splits `HOST:PORT` (host may be empty or a bracketed IPv6 address). */
export function parseListenAddr(addr: string): { host: string; port: number } {
  const i = addr.lastIndexOf(':');
  const host = addr.slice(0, i).replace(/^\[(.*)\]$/, '$1');
  return { host: host || '0.0.0.0', port: Number(addr.slice(i + 1)) };
}

export type Config = z.infer<typeof ConfigSchema>;
export type ProjectConfig = Config['projects'][number];
export type UserConfig = Config['users'][number];
