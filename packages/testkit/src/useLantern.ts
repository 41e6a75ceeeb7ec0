import { afterAll, beforeAll } from 'vitest';
import { PROJECT1_TOKEN, removeDataDir, signIn, startLantern, type RunningLantern, type StartOptions } from './harness';

/** The server of one test file, signed in, with project 1's DSN; set before its tests run. */
export interface TestLantern {
  lantern: RunningLantern;
  /** Session cookie of the default login. */
  cookie: string;
  /** Project 1's DSN for OTLP clients. */
  dsn: string;
}

/**
 * Starts the real server before the file's tests and stops it (and removes its data) after them.
 * Call once at the top of a test file; the fields are filled in by the time the tests run.
 */
export function useLantern(opts: StartOptions = {}): TestLantern {
  const t = {} as TestLantern;
  beforeAll(async () => {
    t.lantern = await startLantern(opts);
    t.cookie = await signIn(t.lantern.baseUrl);
    t.dsn = `http://${PROJECT1_TOKEN}@127.0.0.1:${t.lantern.httpPort}/1`;
  });
  afterAll(async () => {
    await t.lantern?.stop();
    if (t.lantern) removeDataDir(t.lantern.dataDir);
  });
  return t;
}
