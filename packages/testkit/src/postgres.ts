import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import pg from 'pg';
import { freePort } from './ports';

/**
 * A throwaway PostgreSQL server for the test run: Debian's binaries (`npm test` installs the
 * `postgresql` package when missing), a cluster in a temporary directory, on a free loopback port,
 * trust authentication, no system service. PostgreSQL refuses to run as root, so under root (CI)
 * the cluster belongs to Debian's `postgres` user and its commands run through `runuser`.
 */
export interface TestPostgres {
  /** postgres://… of the server's `postgres` database. */
  url: string;
  /** Stops the server and removes its cluster. */
  stop(): void;
  /** Stops the server, keeping its cluster, as an outage would ('fast': connections are cut). */
  halt(): void;
  /** Starts a halted server again on the same port with the same data. */
  resume(): void;
}

const PG_LIB = '/usr/lib/postgresql';

export function postgresBinDir(): string | undefined {
  if (!existsSync(PG_LIB)) return undefined;
  const versions = readdirSync(PG_LIB)
    .filter((v) => existsSync(join(PG_LIB, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(PG_LIB, versions[0], 'bin') : undefined;
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = postgresBinDir();
  if (!bin)
    throw new Error(
      `PostgreSQL server binaries not found under ${PG_LIB}: install Debian's postgresql package (npm test does it when run as root)`,
    );
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'lantern-pg-'));
  const data = join(dir, 'data');
  // The postgres user must reach the directory; it holds nothing but the cluster.
  chmodSync(dir, 0o777);
  const as = (cmd: string, args: string[]) =>
    (asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]] : [join(bin, cmd), args]) as [
      string,
      string[],
    ];
  const exec = (cmd: string, args: string[]) => {
    const [file, argv] = as(cmd, args);
    const r = spawnSync(file, argv, { encoding: 'utf8' });
    if (r.status !== 0)
      throw new Error(`${cmd} failed (${r.status ?? r.signal}): ${r.stderr || r.stdout || r.error?.message}`);
  };
  exec('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--no-locale']);
  const port = await freePort();
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  const start = () => exec('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-o', options, '-w', '-t', '60', 'start']);
  start();
  let running = true;
  let removed = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      if (removed) return;
      removed = true;
      try {
        if (running) exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    halt() {
      exec('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      running = false;
    },
    resume() {
      start();
      running = true;
    },
  };
}

/** The URL of the test server given to the run (`globalSetup.ts`, vitest.config.ts), or a clear failure. */
export function testPgUrl(): string {
  const url = process.env.LANTERN_TEST_PG_URL;
  if (!url)
    throw new Error(
      'LANTERN_TEST_PG_URL is not set: run the tests through `npm test` (or `npx vitest`), whose global setup starts a PostgreSQL server',
    );
  return url;
}

/** True in the test project that runs metadata-backed tests over PostgreSQL (vitest.config.ts). */
export const metadataOnPostgres = (): boolean => process.env.LANTERN_TEST_METADATA === 'postgres';

/**
 * A database of its own on the server at `serverUrl` for a data directory (created when missing), so
 * a restart on the same data dir finds its data again. Returns its URL.
 */
export async function pgDatabaseFor(serverUrl: string, dataDir: string): Promise<string> {
  // Only [a-z0-9_] survive, so the name is safe to use as an identifier below.
  const name = `lantern_${basename(dataDir)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '_')}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!found.rowCount) await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The LANTERN_DB_URL for a test server on `dataDir`: its own PostgreSQL database in the postgres project, else SQLite (''). */
export async function testDbUrl(dataDir: string): Promise<string> {
  return metadataOnPostgres() ? pgDatabaseFor(testPgUrl(), dataDir) : '';
}
