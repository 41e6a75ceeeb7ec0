import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, removeDataDir, serverBundle, tempDataDir } from '@lantern/testkit/harness';

/**
 * A second Lantern on ports that are taken (the usual first-hour mistake: `npm start` twice, or
 * another OpenTelemetry backend on 14318/14317) says which address and what to do, in one line;
 * so does every other failed start (a data directory it cannot use, a store it cannot reach), and
 * it exits 1 promptly.
 */
const ROOT = new URL('../../../..', import.meta.url).pathname;

/** Runs `lantern` until it exits; its exit code and everything it printed (read to the end), and stderr alone. */
async function run(
  httpPort: number,
  grpcPort: number,
  opts: { dataDir?: string; config?: string } = {},
): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }> {
  const dataDir = opts.dataDir ?? tempDataDir();
  const configFile = opts.config === undefined ? '' : join(tempDataDir(), 'lantern.yml');
  if (opts.config !== undefined) writeFileSync(configFile, opts.config);
  try {
    const child = spawn(process.execPath, [await serverBundle()], {
      cwd: ROOT,
      env: {
        ...process.env,
        LANTERN_CONFIG: configFile,
        LANTERN_DATA_DIR: dataDir,
        LANTERN_HTTP_ADDR: `127.0.0.1:${httpPort}`,
        LANTERN_GRPC_ADDR: `127.0.0.1:${grpcPort}`,
        LANTERN_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => ((out += d), (err += d)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    // 'close', not 'exit': the output pipes are drained by then.
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((r) =>
      child.once('close', (c, sig) => r([c, sig])),
    );
    clearTimeout(timer);
    return { code, signal, out, err };
  } finally {
    if (opts.dataDir === undefined) removeDataDir(dataDir);
    if (configFile) removeDataDir(dirname(configFile));
  }
}

describe('start on a port that is in use', () => {
  let busy: Server;
  let busyPort: number;
  beforeAll(async () => {
    busyPort = await freePort();
    busy = createServer();
    await new Promise<void>((r) => busy.listen(busyPort, '127.0.0.1', r));
  });
  afterAll(() => busy?.close());

  it('names the HTTP address and LANTERN_HTTP_ADDR, without a stack trace', async () => {
    const { code, out } = await run(busyPort, await freePort());
    expect(code).toBe(1);
    expect(out).toContain(
      `Lantern failed to start: 127.0.0.1:${busyPort} (listen.http.addr) is already in use (another Lantern, or another program); stop what holds it or set LANTERN_HTTP_ADDR`,
    );
    expect(out).not.toMatch(/\n\s+at /);
    expect(out).not.toContain('Lantern is serving');
  });

  it('names the gRPC address and LANTERN_GRPC_ADDR', async () => {
    const { code, out, err } = await run(await freePort(), busyPort);
    expect(code).toBe(1);
    expect(out).toContain(
      `Lantern failed to start: 127.0.0.1:${busyPort} (listen.grpc.addr) is already in use (another Lantern, or another program); stop what holds it or set LANTERN_GRPC_ADDR`,
    );
    expect(out).not.toMatch(/\n\s+at /);
    // grpc-js printed its own 'E No address added out of total 1 resolved' above our line.
    expect(out).not.toContain('No address added');
    expect(err.trim().split('\n')).toHaveLength(1);
  });
});

describe('other failed starts: one line on stderr, exit 1', () => {
  it('names the data directory and its settings when it cannot be used', async () => {
    const parent = tempDataDir();
    const file = join(parent, 'a-file');
    writeFileSync(file, '');
    try {
      const { code, err } = await run(await freePort(), await freePort(), { dataDir: file });
      expect(code).toBe(1);
      // Before: the error's stack and fields, a dozen lines.
      expect(err.trim().split('\n')).toEqual([
        expect.stringMatching(
          /^Lantern failed to start: the data directory .*a-file \(data_dir, LANTERN_DATA_DIR\) cannot be used: ENOTDIR: not a directory/,
        ),
      ]);
    } finally {
      removeDataDir(parent);
    }
  });

  it('names an unreachable PostgreSQL and its setting, and exits without crashing', async () => {
    const dead = await freePort();
    const { code, signal, err } = await run(await freePort(), await freePort(), {
      config: `storage:\n  db:\n    url: postgres://user:secret@127.0.0.1:${dead}/lantern\n`,
    });
    // Before: a stack trace; and exiting with chDB still open crashed once (exit 139, SIGSEGV).
    expect([code, signal]).toEqual([1, null]);
    expect(err.trim().split('\n')).toEqual([
      `Lantern failed to start: PostgreSQL at postgres://127.0.0.1:${dead}/lantern (storage.db.url): metadata migration failed: connect ECONNREFUSED 127.0.0.1:${dead}`,
    ]);
  });

  it("names an unreachable ClickHouse and its setting, without the client's own log lines", async () => {
    const dead = await freePort();
    const { code, err } = await run(await freePort(), await freePort(), {
      config: `storage:\n  ch:\n    url: http://127.0.0.1:${dead}\n`,
    });
    expect(code).toBe(1);
    expect(err.trim().split('\n')).toEqual([
      `Lantern failed to start: ClickHouse at http://127.0.0.1:${dead} (storage.ch.url): connect ECONNREFUSED 127.0.0.1:${dead}`,
    ]);
  });
});
