import { Writable } from 'node:stream';
import pino from 'pino';
import { freePort, tempDataDir } from '@lantern/testkit/harness';
import { testDbUrl } from '@lantern/testkit/postgres';
import { composeLantern, type Lantern } from '../app/compose';
import { loadConfig, type Config } from '../config';

/**
 * For auth integration tests: the real server in-process on a free port with a temp data dir, a
 * log the test can read, and the login rate limiter's clock in the test's hands. Metadata in
 * PostgreSQL when the test project asks for it (LANTERN_TEST_METADATA=postgres), else SQLite.
 */
export interface AuthTestServer {
  lantern: Lantern;
  baseUrl: string;
  dataDir: string;
  clock: { ms: number };
  /** Every log line so far, as parsed JSON. */
  logLines(): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function startAuthServer(
  opts: { dataDir?: string; configure?: (config: Config) => void; httpPort?: number } = {},
): Promise<AuthTestServer> {
  const dataDir = opts.dataDir ?? tempDataDir();
  const port = opts.httpPort ?? (await freePort());
  const config = loadConfig({
    env: {
      LANTERN_DB_URL: await testDbUrl(dataDir),
      LANTERN_DATA_DIR: dataDir,
      LANTERN_HTTP_ADDR: `127.0.0.1:${port}`,
      LANTERN_SITE_URL: `http://127.0.0.1:${port}`,
      LANTERN_GRPC_ADDR: '127.0.0.1:0',
      LANTERN_LOG_LEVEL: 'info',
      // One prepare thread, as the test kit's servers have: each thread of a server run from the
      // sources loads the prepare modules through tsx (~0.8 CPU-s a thread at every start).
      LANTERN_INGEST_WORKERS: '1',
    },
  });
  opts.configure?.(config);
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  const clock = { ms: Date.parse('2026-01-01T00:00:00Z') };
  const lantern = await composeLantern(config, {
    log: pino({ level: 'info' }, sink),
    authNow: () => clock.ms,
    alertingLoop: false,
    webDist: '/nonexistent',
    checkAnswers: true,
    metrics: null,
  });
  const { httpPort } = await lantern.listen();
  return {
    lantern,
    baseUrl: `http://127.0.0.1:${httpPort}`,
    dataDir,
    clock,
    logLines: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
    close: () => lantern.close(),
  };
}
