import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as grpc from '@grpc/grpc-js';
import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { createAlerting, type Alerting, type MetricQueryRunner } from '../alerting';
import {
  createAuthService,
  createLoginLimiter,
  createSessionSigner,
  createSessionsStore,
  createSsoProviders,
  createSsoService,
  createUsersStore,
  registerAuth,
  registerSsoRoutes,
  SESSION_COOKIE,
  sessionCookie,
} from '../auth';
import { parseListenAddr, type Config } from '../config';
import { setupDashboards } from '../dashboards';
import { registerDemoRoutes } from '../demo';
import { createHttpApp, registerApiDocs, registerWebApp } from '../http';
import { Batcher, bindGrpc, createIngest, createPreparePool, type PreparePool, type SpanBatcher } from '../ingest';
import {
  createMetricQueryRunner,
  createMetricsPipeline,
  createMetricsQueryService,
  createMetricsStore,
  registerMetricsRoutes,
  createPrometheusApi,
  registerPrometheusRoutes,
} from '../metrics';
import { createProjectsService, registerProjectRoutes } from '../projects';
import { spanMetricsModel } from '../metricsFromSpans';
import { migrateMetadataDb, openMetadataDb, type MetadataDb } from '../storage/metadata';
import { METADATA_MIGRATIONS } from './metadataMigrations';
import { openTelemetryStore, type StagedSpans, type TelemetryStore } from '../storage/telemetry';
import {
  createDurationRollupJob,
  createServiceGraphJob,
  createSystemRollupJob,
  registerTracingRoutes,
} from '../tracing';
import { resolveSecretKey } from './secretKey';
import { SERVER_ROOT } from '../paths';

/** How long a shutdown step runs before the log names it (compose's close). */
const CLOSE_STEP_WARN_MS = 10_000;

/** Wires every area together: the one place that knows all of them. */
export interface Lantern {
  http: FastifyInstance;
  grpc: grpc.Server;
  log: Logger;
  alerting: Alerting;
  /** Binds the listeners; resolves with the bound ports. */
  listen(): Promise<{ httpPort: number; grpcPort: number }>;
  /** Stops taking requests, commits what is queued, closes storage. */
  close(): Promise<void>;
}

const WEB_DIST = fileURLToPath(new URL('../web/dist', SERVER_ROOT));
/** The server package's version, for the OpenAPI document. */
const SERVER_VERSION = (createRequire(SERVER_ROOT)('./package.json') as { version: string }).version;

export interface ComposeOptions {
  webDist?: string;
  log?: Logger;
  /**
   * Alerting: the clock (tests inject one), whether its timers run, and the metrics engine for
   * metric monitors (undefined: the built-in one; null: none).
   */
  now?: () => Date;
  alertingLoop?: boolean;
  metrics?: MetricQueryRunner | null;
  /** How far error monitors' scans stay behind the engine's clock (default 30 s; tests 0). */
  errorScanLagMs?: number;
  /** Clock of the login rate limiter, in ms (tests step it instead of waiting out the window). */
  authNow?: () => number;
  /** Parse every JSON answer by its route contract before sending it (tests; see createHttpApp). */
  checkAnswers?: boolean;
}

/** A first step on a remote store: its failure names the store and its setting (without credentials). */
async function remote(url: string, what: string, key: string, step: Promise<void>): Promise<void> {
  try {
    await step;
  } catch (err) {
    if (!url) throw err;
    let where = url;
    try {
      const u = new URL(url);
      where = `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
    } catch {
      // not a URL: said as given
    }
    throw new Error(`${what} at ${where} (${key}): ${err instanceof Error ? err.message : String(err)}`, {
      cause: err,
    });
  }
}

/** What a start opened before a later step failed: closed before the error goes on. */
interface Opened {
  telemetry?: TelemetryStore;
  db?: MetadataDb;
  pool?: PreparePool;
}

export async function composeLantern(config: Config, opts: ComposeOptions = {}): Promise<Lantern> {
  const opened: Opened = {};
  try {
    return await compose(config, opts, opened);
  } catch (err) {
    // In the order close() uses. An exit with chDB still open crashed the process (SIGSEGV, after
    // an unreachable PostgreSQL failed the metadata migration).
    const quietly = (p: Promise<unknown> | undefined) => p?.catch(() => undefined);
    await quietly(opened.telemetry?.close());
    await quietly(opened.pool?.close());
    await quietly(opened.db?.destroy());
    throw err;
  }
}

async function compose(config: Config, opts: ComposeOptions, opened: Opened): Promise<Lantern> {
  const log = opts.log ?? pino({ level: config.log_level });
  // Metrics from spans: the store writes them with the spans, by the model made from the config here.
  const telemetry = openTelemetryStore(config, spanMetricsModel(config.metrics_from_spans));
  opened.telemetry = telemetry;
  await remote(config.storage.ch.url, 'ClickHouse', 'storage.ch.url', telemetry.migrate());
  const db = openMetadataDb(config);
  opened.db = db;
  await remote(config.storage.db.url, 'PostgreSQL', 'storage.db.url', migrateMetadataDb(db, METADATA_MIGRATIONS));

  const projects = createProjectsService(config);
  const users = createUsersStore(db);
  await users.syncFromConfig(config.users);
  const signer = createSessionSigner(resolveSecretKey(config.secret_key, config.data_dir));
  const limiter = createLoginLimiter({
    maxFailures: config.auth.login_rate_limit.max_failures,
    windowMs: config.auth.login_rate_limit.window_seconds * 1000,
    now: opts.authNow,
  });
  const auth = createAuthService({ config, users, projects, signer, sessions: createSessionsStore(db), limiter });
  // Unreachable identity providers do not stop the start: their methods are listed as unavailable.
  const sso = createSsoService({
    providers: await createSsoProviders(config.auth.oidc, config.site.url, log),
    users,
    auth,
    signer,
  });

  const batcher: SpanBatcher = new Batcher<StagedSpans>({
    batchRows: config.ingest.batch_rows,
    flushIntervalMs: config.ingest.flush_interval_ms,
    queueRows: config.ingest.queue_rows,
    queueBytes: config.ingest.queue_bytes,
    maxQueueWaitMs: config.ingest.max_queue_wait_ms,
    write: (chunks) => telemetry.insertStagedSpans(chunks),
    onError: (err, rows) => log.error({ err, rows }, 'span batch insert failed'),
  });
  const preparePool = createPreparePool({
    threads: config.ingest.workers,
    // Bodies waiting to be decoded: up to one largest body's worth, and 16 requests per thread.
    maxBytes: config.ingest.max_body_bytes,
    maxRequests: config.ingest.workers * 16,
  });
  opened.pool = preparePool;
  // Dashboard templates are installed when their metrics first appear (bound once dashboards exist).
  let onNewMetrics = (_projectId: number) => {};
  const metrics = createMetricsPipeline({
    config,
    telemetry,
    pool: preparePool,
    log,
    onNewMetrics: (projectId) => onNewMetrics(projectId),
    // Runs per request, after `ingest` below exists.
    counters: () => ingest.stats.signal('metrics'),
  });
  const ingest = createIngest({
    config,
    batcher,
    pool: preparePool,
    projects,
    log,
    metrics: metrics.ingest.otlp,
    promWrite: metrics.ingest.prometheus,
    stagingDir: telemetry.stagingDir,
    onSpansStored: (projectId) => onNewMetrics(projectId),
  });

  const http = await createHttpApp(log, { checkAnswers: opts.checkAnswers });
  const secureCookie = config.site.url.startsWith('https:');
  registerAuth(http, auth, { secureCookie });
  registerSsoRoutes(http, { sso, cookie: sessionCookie(secureCookie), secureCookie, log });
  registerProjectRoutes(http, projects);
  registerTracingRoutes(http, {
    projects,
    telemetry,
    db,
    spansDays: config.retention.spans_days,
    tail: {
      limits: {
        maxStreams: config.tail.max_streams,
        maxStreamsPerUser: config.tail.max_streams_per_user,
        maxRowsPerSecond: config.tail.max_rows_per_second,
        pollMs: config.tail.poll_ms,
        settleMs: config.tail.settle_ms,
        heartbeatMs: config.tail.heartbeat_seconds * 1000,
      },
      sessions: {
        tokenOf: (req) => req.cookies[SESSION_COOKIE] ?? '',
        alive: async (token) => (await auth.userFromSession(token)) !== null,
        onSignOut: (listener) => auth.onLogout(listener),
      },
      log,
    },
  });
  const metricsStore = createMetricsStore(telemetry, { fromSpans: config.metrics_from_spans.map((d) => d.name) });
  const metricsQuery = createMetricsQueryService({ store: metricsStore, telemetry });
  registerMetricsRoutes(http, { projects, store: metricsStore, query: metricsQuery });
  await registerPrometheusRoutes(http, {
    projects,
    api: createPrometheusApi({
      telemetry,
      maxSeries: config.prometheus.max_series,
      timeoutMs: config.prometheus.timeout_seconds * 1000,
      version: SERVER_VERSION,
    }),
  });
  const templates = await setupDashboards({
    http,
    db,
    projects,
    siteUrl: config.site.url,
    log,
    presentMetrics: async (projectId, names) => (await metricsStore.describe(projectId, names)).map((m) => m.name),
    checkQuery: (projectId, q, mode) => metricsQuery.check(projectId, q, mode),
  });
  onNewMetrics = (projectId) => templates.schedule(projectId);
  // The service graph's minutes, written by one node at a time (docs/architecture.md, "Service graph").
  const serviceGraph = createServiceGraphJob({
    telemetry,
    log,
    waitMs: config.service_graph.wait_seconds * 1000,
    envProjects: config.projects.filter((p) => p.group_by_env).map((p) => p.id),
  });
  const serviceGraphJob = {
    name: 'service-graph',
    everyMs: config.service_graph.interval_seconds * 1000,
    run: (now: Date) => serviceGraph.run(now),
  };
  // The spans' per-system 5-minute rows, rolled up by one node at a time (docs/architecture.md, "Tracing query engine").
  const systemRollup = createSystemRollupJob({ telemetry, log });
  const systemRollupJob = {
    name: 'span-systems',
    everyMs: config.span_rollups.interval_seconds * 1000,
    run: (now: Date) => systemRollup.run(now),
  };
  // The spans' counts per duration bin and 5 minutes (Explore's duration heatmap), the same way.
  const durationRollup = createDurationRollupJob({ telemetry, log });
  const durationRollupJob = {
    name: 'span-durations',
    everyMs: config.span_rollups.interval_seconds * 1000,
    run: (now: Date) => durationRollup.run(now),
  };
  const alerting = createAlerting({
    config,
    db,
    telemetry,
    projects,
    log,
    now: opts.now,
    errorScanLagMs: opts.errorScanLagMs,
    metrics: opts.metrics !== undefined ? opts.metrics : createMetricQueryRunner(metricsQuery),
    leaderJobs: [serviceGraphJob, systemRollupJob, durationRollupJob],
  });
  await alerting.seedProjects();
  registerDemoRoutes(http, { projects });
  alerting.register(http);
  await ingest.registerHttp(http);
  registerApiDocs(http, { version: SERVER_VERSION, sessionCookie: SESSION_COOKIE });
  await registerWebApp(http, opts.webDist ?? WEB_DIST);

  const grpcServer = ingest.grpc;

  return {
    http,
    grpc: grpcServer,
    log,
    alerting,
    async listen() {
      const h = parseListenAddr(config.listen.http.addr);
      await http.listen({ host: h.host, port: h.port });
      const address = http.server.address();
      const httpPort = typeof address === 'object' && address ? address.port : h.port;
      const grpcPort = await bindGrpc(
        grpcServer,
        config.listen.grpc.addr.startsWith(':') ? `0.0.0.0${config.listen.grpc.addr}` : config.listen.grpc.addr,
      );
      if (opts.alertingLoop !== false) alerting.scheduler.start();
      return { httpPort, grpcPort };
    },
    async close() {
      // Each step in order; one still running after a while is named in the log, so a shutdown
      // that hangs says where (a whole-suite run once waited over 120 s for a server to exit).
      const step = async (name: string, f: () => Promise<unknown> | void) => {
        const slow = setTimeout(() => log.warn({ step: name }, 'shutting down: still waiting'), CLOSE_STEP_WARN_MS);
        slow.unref();
        try {
          await f();
        } finally {
          clearTimeout(slow);
        }
      };
      await step('grpc', () => new Promise<void>((resolve) => grpcServer.tryShutdown(() => resolve())));
      await step('http', () => http.close());
      await step('alerting', () => alerting.close());
      ingest.close();
      await step('templates', () => templates.close());
      await step('span batches', () => batcher.close());
      await step('metric batches', () => metrics.batcher.close());
      // The store before the prepare workers: it still writes at close (the metrics from spans
      // waiting in memory, spanMetricWriter.ts), and a chDB query issued after the workers were
      // terminated never returned (the server hung at SIGTERM, session 13).
      await step('telemetry store', () => telemetry.close());
      await step('prepare workers', () => preparePool.close());
      await step('database', () => db.destroy());
    },
  };
}
