import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports';
import { startClickHouseStandIn } from './clickhouse/fixture';
import { testDbUrl } from './postgres';

export { freePort };

/**
 * Starts the real Lantern server as a child process on free ports with its own data directory,
 * exactly as `npm start` runs it. Used by the integration, durability and browser tests.
 */
export interface RunningLantern {
  baseUrl: string;
  httpPort: number;
  grpcPort: number;
  dataDir: string;
  process: ChildProcess;
  /** Output so far, for assertions and for failure messages. */
  output(): string;
  /** SIGTERM and wait for exit (graceful: queued rows are committed). */
  stop(): Promise<void>;
  /** SIGKILL and wait for exit: nothing gets a chance to flush. */
  kill(): Promise<void>;
}

export interface StartOptions {
  /** Reuse a data directory (to restart after a kill); a temp one otherwise. */
  dataDir?: string;
  /** Extra LANTERN_* variables. */
  env?: Record<string, string>;
  /**
   * Where telemetry goes: embedded chDB, or the remote store through a ClickHouse test stand-in
   * (default: `clickhouse` in the `integration-ch` test project, LANTERN_TEST_TELEMETRY).
   */
  telemetry?: 'embedded' | 'clickhouse';
  /** Reuse ports (a restart keeps its DSNs). */
  httpPort?: number;
  grpcPort?: number;
  /** The server's main module, relative to the repository (another version's copy, for an A/B bench). */
  serverMain?: string;
}

export const DEFAULT_LOGIN = { email: 'admin@lantern.local', password: 'lantern' };
export const PROJECT1_TOKEN = 'project1_secret_token';
export const PROJECT2_TOKEN = 'project2_secret_token';

const ROOT = new URL('../../..', import.meta.url).pathname;

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'lantern-test-'));
}

export async function startLantern(opts: StartOptions = {}): Promise<RunningLantern> {
  const dataDir = opts.dataDir ?? tempDataDir();
  const httpPort = opts.httpPort ?? (await freePort());
  const grpcPort = opts.grpcPort ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${httpPort}`;
  // In the `integration-ch` test project telemetry goes to the remote store, through the ClickHouse
  // stand-in, whose engine keeps its data where the embedded one would (<dataDir>/ch), so that
  // readers of a stopped server's data and restarts on the same data dir work alike.
  const telemetry = opts.telemetry ?? (process.env.LANTERN_TEST_TELEMETRY === 'clickhouse' ? 'clickhouse' : 'embedded');
  const standIn = telemetry === 'clickhouse' ? await startClickHouseStandIn(join(dataDir, 'ch')) : undefined;
  const child = spawn(process.execPath, ['--import', 'tsx', opts.serverMain ?? 'packages/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      LANTERN_CONFIG: '',
      LANTERN_DATA_DIR: dataDir,
      LANTERN_HTTP_ADDR: `127.0.0.1:${httpPort}`,
      LANTERN_GRPC_ADDR: `127.0.0.1:${grpcPort}`,
      LANTERN_SITE_URL: baseUrl,
      LANTERN_LOG_LEVEL: 'warn',
      // Every JSON answer is parsed by its route contract (one that breaks it is a 500).
      LANTERN_CHECK_ANSWERS: '1',
      LANTERN_DB_URL: await testDbUrl(dataDir),
      ...(standIn ? { LANTERN_CH_URL: standIn.url } : {}),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const serving = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Lantern did not start in 60 s:\n${out}`)), 60_000);
    const onData = () => {
      if (out.includes('Lantern is serving')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Lantern exited with ${code} before serving:\n${out}`));
    });
  });
  await serving.catch(async (err: unknown) => {
    child.kill('SIGKILL');
    await standIn?.stop();
    throw err;
  });

  const waitExit = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
    await standIn?.stop();
  };
  return {
    baseUrl,
    httpPort,
    grpcPort,
    dataDir,
    process: child,
    output: () => out,
    stop: () => waitExit('SIGTERM'),
    kill: () => waitExit('SIGKILL'),
  };
}

export function removeDataDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Signs in through the API and returns the session cookie header value. */
export async function signIn(baseUrl: string, login = DEFAULT_LOGIN): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v1/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(login),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.get('set-cookie');
  if (!cookie) throw new Error('login answered without a session cookie');
  return cookie.split(';')[0];
}
