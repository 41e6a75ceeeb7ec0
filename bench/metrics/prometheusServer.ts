import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@lantern/testkit/harness';

/** A Prometheus started for a bench: its remote-write receiver on, no scrapes, data in a temp directory. */
export interface BenchPrometheus {
  base: string;
  pid: number;
  /** Stops it and removes its data. */
  stop(): Promise<void>;
}

/** Starts `binary` with `--web.enable-remote-write-receiver` and waits until it is ready. */
export async function startRemoteWritePrometheus(binary: string): Promise<BenchPrometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-bench-prom-'));
  const port = await freePort();
  writeFileSync(join(dir, 'prometheus.yml'), 'global:\n  scrape_interval: 1h\n');
  const prom = spawn(
    binary,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--web.enable-remote-write-receiver',
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const stop = async () => {
    if (prom.exitCode === null && prom.signalCode === null) {
      prom.kill('SIGTERM');
      await new Promise((r) => prom.once('exit', r));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/-/ready`)).status === 200) break;
    } catch {
      /* not up yet */
    }
    if (i > 100) {
      await stop();
      throw new Error('prometheus did not start');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { base, pid: prom.pid!, stop };
}
