import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Starts the ClickHouse test stand-in (`clickhouse/server.ts`: the ClickHouse HTTP interface in
 * front of a chDB session, in a process of its own like a real server) on a free port with its own
 * data directory. For tests of the remote store path (`storage.ch.url`).
 */
export interface ClickHouseStandIn {
  url: string;
  stop(): Promise<void>;
}

const SERVER = new URL('./server.ts', import.meta.url).pathname;
const STOP_GRACE_MS = 20_000;

/**
 * `dataDir`: where its engine keeps its data (kept after stop); a temp directory removed at stop
 * otherwise. `port`: to come back on the address of a stopped one (a free port otherwise).
 */
export async function startClickHouseStandIn(dataDir?: string, port = 0): Promise<ClickHouseStandIn> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'lantern-ch-'));
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER, dataDir ?? join(dir, 'data'), String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const listening = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`ClickHouse stand-in did not start in 60 s:\n${out}`)), 60_000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`ClickHouse stand-in exited with ${code}:\n${out}`));
    });
  });
  return {
    url: `http://127.0.0.1:${listening}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      // Its SIGTERM handler runs only between engine calls: one that never returns would hold the caller
      // forever (a durability run once hung here until its 600 s timeout, printing nothing).
      const killTimer = setTimeout(() => {
        process.stderr.write(
          `ClickHouse stand-in did not stop in ${STOP_GRACE_MS} ms; killed. Its output:\n${out.slice(-4000)}\n`,
        );
        child.kill('SIGKILL');
      }, STOP_GRACE_MS);
      await exited;
      clearTimeout(killTimer);
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
