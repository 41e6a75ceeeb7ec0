import { describe, expect, it } from 'vitest';
import { removeDataDir, startLantern } from './harness';

describe('startLantern', () => {
  it("fails a stop whose server does not exit, with the server's output, and kills it", async () => {
    const lantern = await startLantern({
      serverMain: 'packages/testkit/src/fixtures/ignoresSigterm.mjs',
      freshStorage: true,
      stopDeadlineMs: 500,
    });
    try {
      await expect(lantern.stop()).rejects.toThrow(/did not exit 0\.5 s after SIGTERM \(killed\):[\s\S]*still running/);
      expect(lantern.process.signalCode).toBe('SIGKILL');
    } finally {
      removeDataDir(lantern.dataDir);
    }
  });
});
