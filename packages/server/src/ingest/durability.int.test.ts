import { afterAll, describe, expect, it } from 'vitest';
import { removeDataDir } from '../../../../e2e/harness';
import { runDurability } from '../../../../e2e/hardening/durability';

/**
 * The durability contract, short form (the long form is `bench/ingest-hardening`): every request
 * answered with success survives SIGKILL at a random moment, on every ingest path, over several
 * kill/restart trials on one data directory.
 */
let dataDir = '';
afterAll(() => {
  if (dataDir) removeDataDir(dataDir);
});

describe('durability', () => {
  it('keeps every acknowledged row across 10 SIGKILLs at random moments', async () => {
    const result = await runDurability({ trials: 10, clients: 6, killAfterMs: [300, 1500], rowsPerRequest: 20, seed: Date.now() % 100_000 });
    dataDir = result.dataDir;
    expect(result.ackedRequests).toBeGreaterThan(40);
    expect(result.lost).toEqual([]);
  }, 120_000);
});
