import { signIn, tempDataDir } from '@lantern/testkit/harness';
import { testDbUrl } from '@lantern/testkit/postgres';
import { composeLantern, type Lantern } from '../app/compose';
import { loadConfig } from '../config';
import type { MetricQueryRunner } from './metricQueryRunner';

/**
 * For alerting integration tests: the real server in-process on free ports with a temp data dir,
 * an injected alerting clock (timers off: the test ticks), loopback notification URLs allowed and
 * e-mail sent to a local SMTP port. In the `integration-pg` test project, metadata lives in PostgreSQL (a
 * database per data dir, so a restart on the same data dir finds its data again).
 */
export const TEST_SITE = 'http://lantern.test';

export interface AlertingTestServer {
  lantern: Lantern;
  baseUrl: string;
  grpcPort: number;
  dataDir: string;
  /** The signed-in admin's session cookie, for routes outside the project prefix of `call`. */
  cookie: string;
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
}

export async function startAlertingServer(opts: {
  dataDir?: string;
  smtpPort: number;
  clock: { now: Date };
  metrics?: MetricQueryRunner | 'built-in';
}): Promise<AlertingTestServer> {
  const dataDir = opts.dataDir ?? tempDataDir();
  const config = loadConfig({
    env: {
      LANTERN_DB_URL: await testDbUrl(dataDir),
      LANTERN_DATA_DIR: dataDir,
      LANTERN_HTTP_ADDR: '127.0.0.1:0',
      LANTERN_GRPC_ADDR: '127.0.0.1:0',
      LANTERN_LOG_LEVEL: 'silent',
      // One prepare thread, as the test kit's servers have: each thread of a server run from the
      // sources loads the prepare modules through tsx (~0.8 CPU-s a thread at every start).
      LANTERN_INGEST_WORKERS: '1',
      LANTERN_SITE_URL: TEST_SITE,
      LANTERN_INGEST_FLUSH_INTERVAL_MS: '20',
    },
  });
  config.notifications = {
    allow_networks: ['loopback'],
    smtp: { ...config.notifications.smtp, enabled: true, host: '127.0.0.1', port: opts.smtpPort },
  };
  // Without `metrics` the server gets no engine (null): the alerting tests pin the no-engine mode.
  const metrics = opts.metrics === 'built-in' ? undefined : (opts.metrics ?? null);
  const lantern = await composeLantern(config, {
    now: () => opts.clock.now,
    alertingLoop: false,
    errorScanLagMs: 0,
    webDist: '/nonexistent',
    checkAnswers: true,
    metrics,
  });
  const ports = await lantern.listen();
  const baseUrl = `http://127.0.0.1:${ports.httpPort}`;
  const cookie = await signIn(baseUrl);
  return {
    lantern,
    baseUrl,
    grpcPort: ports.grpcPort,
    dataDir,
    cookie,
    async call<T>(method: string, path: string, body?: unknown) {
      const res = await fetch(`${baseUrl}/api/v1/projects/1${path}`, {
        method,
        headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
    },
  };
}
