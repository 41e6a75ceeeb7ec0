import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, removeDataDir, tempDataDir } from '@lantern/testkit/harness';

/**
 * A second Lantern on ports that are taken (the usual first-hour mistake: `npm start` twice, or
 * another OpenTelemetry backend on 14318/14317) says which address and what to do, in one line.
 */
const ROOT = new URL('../../../..', import.meta.url).pathname;

/** Runs `lantern` until it exits; its exit code and everything it printed (read to the end). */
async function run(httpPort: number, grpcPort: number): Promise<{ code: number | null; out: string }> {
  const dataDir = tempDataDir();
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        LANTERN_CONFIG: '',
        LANTERN_DATA_DIR: dataDir,
        LANTERN_HTTP_ADDR: `127.0.0.1:${httpPort}`,
        LANTERN_GRPC_ADDR: `127.0.0.1:${grpcPort}`,
        LANTERN_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    // 'close', not 'exit': the output pipes are drained by then.
    const code = await new Promise<number | null>((r) => child.once('close', r));
    clearTimeout(timer);
    return { code, out };
  } finally {
    removeDataDir(dataDir);
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
    const { code, out } = await run(await freePort(), busyPort);
    expect(code).toBe(1);
    expect(out).toContain(
      `Lantern failed to start: 127.0.0.1:${busyPort} (listen.grpc.addr) is already in use (another Lantern, or another program); stop what holds it or set LANTERN_GRPC_ADDR`,
    );
    expect(out).not.toMatch(/\n\s+at /);
  });
});
