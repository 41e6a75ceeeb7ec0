import { afterAll, describe, expect, it } from 'vitest';
import { removeDataDir } from '@lantern/testkit/harness';
import { runDurability } from '@lantern/testkit/hardening/durability';

/**
 * The durability contract, short form (the long form is `bench/ingest-hardening`): every request
 * answered with success survives SIGKILL at a random moment, on every ingest path, over several
 * kill/restart trials on one data directory; its datapoints in the metrics derived from spans too.
 * OTLP metrics and Prometheus remote write requests are among the paths, 200 samples each on 5
 * series: every acknowledged sample is stored exactly once (folded and journaled before the engine:
 * docs/decisions/metrics-ingest-fold.md).
 */
let dataDir = '';
afterAll(() => {
  if (dataDir) removeDataDir(dataDir);
});

// Each trial starts a server (3-5 s on a quiet machine, three times that when the suite runs two
// files at once); behind the ClickHouse stand-in the engine starts twice per trial, so that
// project runs fewer trials.
const TRIALS = process.env.LANTERN_TEST_TELEMETRY === 'clickhouse' ? 6 : 10;

describe('durability', () => {
  it(`keeps every acknowledged row across ${TRIALS} SIGKILLs at random moments`, async () => {
    const result = await runDurability({
      trials: TRIALS,
      clients: 6,
      killAfterMs: [500, 2000],
      rowsPerRequest: 20,
      samplesPerMetricsRequest: 200,
      seed: Date.now() % 100_000,
    });
    dataDir = result.dataDir;
    console.log(JSON.stringify({ ...result, lost: result.lost.slice(0, 10), lostCount: result.lost.length }));
    expect(result.ackedRequests).toBeGreaterThan(10);
    expect(result.ackedMetricsRequests).toBeGreaterThan(0);
    expect(result.ackedPromRequests).toBeGreaterThan(0);
    expect(result.lost).toEqual([]);
  }, 600_000);
});
