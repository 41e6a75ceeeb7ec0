import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from './ports';
import { startClickHouseStandIn } from './clickhouse/fixture';
import { testDbUrl } from './postgres';

export { freePort };

/** How long a stopped server may take to exit before it is killed and the stop fails. */
const STOP_DEADLINE_MS = 60_000;

/**
 * Starts the real Lantern server as a child process on free ports with its own data directory,
 * exactly as `npm start` runs it (the bundle of the current sources). Used by the integration, durability and browser tests.
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
  /**
   * The server's main module, relative to the repository (another version's copy, for an A/B bench):
   * a `.ts` one runs under tsx. Default: the bundle of the current sources (scripts/buildServer.mjs),
   * what `npm start` runs.
   */
  serverMain?: string;
  /**
   * A new data directory's embedded telemetry store starts as a copy of one that a server of the
   * same bundle migrated (the server still runs its migrations on it, finding them applied): saves
   * the ~100 DDL statements of a fresh schema at each start; so does a given `dataDir` without a
   * store yet (one that has a store keeps it). `true` starts from an empty store, as does a `.ts`
   * serverMain.
   */
  freshStorage?: boolean;
  /**
   * Prepare threads (`ingest.workers`). In a test (Vitest) one unless the test says otherwise:
   * requests still go through a worker thread as in production, and a start costs ~0.7 CPU-s less
   * than with the machine's default (each thread loads the prepare modules and warms up); the ingest
   * hardening checks (durability, overload, fuzz) ask for the default (`'default'`), which benches get.
   */
  ingestWorkers?: number | 'default';
  /** How long `stop` waits for the server to exit before it kills it and fails (default 60 s). */
  stopDeadlineMs?: number;
}

/**
 * Alerting on a test's time scale (docs/configuration.md, `alerting.*`), for tests of the server's
 * own evaluator timer: errors scanned every 2 s and 10 s behind the store's clock (not 30), metric
 * monitors looking at a minute 5 s after it ends (not 30), a stopped node's lease taken over after
 * 10 s (not 90). The same code runs as with the defaults, on shorter waits.
 */
export const FAST_ALERTING_ENV: Record<string, string> = {
  LANTERN_ALERTING_CHECK_INTERVAL_SECONDS: '2',
  LANTERN_ALERTING_ERROR_SCAN_LAG_SECONDS: '10',
  LANTERN_ALERTING_METRIC_DELAY_SECONDS: '5',
  LANTERN_ALERTING_LEASE_SECONDS: '10',
};

export const DEFAULT_LOGIN = { email: 'admin@lantern.local', password: 'lantern' };
export const PROJECT1_TOKEN = 'project1_secret_token';
export const PROJECT2_TOKEN = 'project2_secret_token';

const ROOT = new URL('../../..', import.meta.url).pathname;

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'lantern-test-'));
}

type BuildScript = { ensureServerBuild(): Promise<string> };

/** The path of the server bundle of the current sources, built when missing (scripts/buildServer.mjs). */
export async function serverBundle(): Promise<string> {
  const script = (await import(join(ROOT, 'scripts/buildServer.mjs'))) as BuildScript;
  return script.ensureServerBuild();
}

/**
 * The embedded store of a fresh server of this bundle, migrated: made by starting the bundle on an
 * empty data directory and stopping it, kept next to the bundle (its schema is the bundle's) as
 * `ch-template-<made at>`. ClickHouse's links between its folders are relative, so a copy of the folder
 * is a store of its own. A new one is made after an hour (the metrics rollups' watermark starts at the
 * hour the store was made, and a server on an older copy would first roll up the empty hours since);
 * one is never changed or moved once made, so a copy being taken is never torn.
 */
const TEMPLATE_MAX_AGE_MS = 3_600_000;

async function migratedStoreTemplate(main: string): Promise<string> {
  const dir = dirname(main);
  const made = readdirSync(dir)
    .map((name) => /^ch-template-(\d+)$/.exec(name))
    .filter((m) => m !== null)
    .map((m) => ({ path: join(dir, m[0]), at: Number(m[1]) }))
    .sort((a, b) => b.at - a.at);
  for (const old of made.filter((t) => Date.now() - t.at > 2 * TEMPLATE_MAX_AGE_MS))
    rmSync(old.path, { recursive: true, force: true });
  if (made.length && Date.now() - made[0].at < TEMPLATE_MAX_AGE_MS) return made[0].path;
  const at = Date.now();
  const dataDir = tempDataDir();
  try {
    const server = await startLantern({ dataDir, serverMain: main, telemetry: 'embedded', freshStorage: true });
    await server.stop();
    const template = join(dir, `ch-template-${at}`);
    renameSync(join(dataDir, 'ch'), template);
    return template;
  } finally {
    removeDataDir(dataDir);
  }
}

/** Builds the bundle and its migrated store before the tests start servers from them (globalSetup). */
export async function prepareServerBundle(): Promise<void> {
  await migratedStoreTemplate(await serverBundle());
}

export async function startLantern(opts: StartOptions = {}): Promise<RunningLantern> {
  const main = opts.serverMain ?? (await serverBundle());
  const dataDir = opts.dataDir ?? tempDataDir();
  const telemetry = opts.telemetry ?? (process.env.LANTERN_TEST_TELEMETRY === 'clickhouse' ? 'clickhouse' : 'embedded');
  // A given data directory without a store yet (a test that restarts on it later) starts from the
  // template as well: its first start then takes the ~100 DDL statements of a fresh schema off the clock.
  const storeDir = join(dataDir, 'ch');
  if (!existsSync(storeDir) && !opts.freshStorage && telemetry === 'embedded' && !main.endsWith('.ts'))
    cpSync(await migratedStoreTemplate(main), storeDir, { recursive: true, verbatimSymlinks: true });
  const httpPort = opts.httpPort ?? (await freePort());
  const workers = opts.ingestWorkers ?? (process.env.VITEST ? 1 : 'default');
  const grpcPort = opts.grpcPort ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${httpPort}`;
  // In the `integration-ch` test project telemetry goes to the remote store, through the ClickHouse
  // stand-in, whose engine keeps its data where the embedded one would (<dataDir>/ch), so that
  // readers of a stopped server's data and restarts on the same data dir work alike.
  const standIn = telemetry === 'clickhouse' ? await startClickHouseStandIn(join(dataDir, 'ch')) : undefined;
  // Stack traces in a server's output name the bundle's lines; LANTERN_SOURCE_MAPS=1 maps them to the
  // sources (`--enable-source-maps`, as `npm start` runs), at ~0.3 CPU-s a start for reading the maps.
  const child = spawn(
    process.execPath,
    main.endsWith('.ts')
      ? ['--import', 'tsx', main]
      : [...(process.env.LANTERN_SOURCE_MAPS ? ['--enable-source-maps'] : []), main],
    {
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
        ...(workers === 'default' ? {} : { LANTERN_INGEST_WORKERS: String(workers) }),
        ...opts.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
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
    // A server that does not exit after SIGTERM is a failure to report with its output (its log
    // names the shutdown step it waits on), not a hook that times out saying nothing.
    const deadline = opts.stopDeadlineMs ?? STOP_DEADLINE_MS;
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, deadline);
    await exited;
    clearTimeout(timer);
    await standIn?.stop();
    if (hung)
      throw new Error(`Lantern did not exit ${deadline / 1000} s after ${signal} (killed):\n${out.slice(-4000)}`);
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
