import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT1_TOKEN, removeDataDir, startLantern } from '@lantern/testkit/harness';
import { RequestFactory, send } from '@lantern/testkit/hardening/traffic';
import { normalizeLogs } from '../../packages/server/src/ingest/normalize';
import { decodeLogsProto } from '../../packages/server/src/ingest/otlp';
import { openChdbStore } from '../../packages/server/src/storage/telemetry';
import { DEFAULT_METRICS_FROM_SPANS, spanMetricsModel } from '../../packages/server/src/metricsFromSpans';

/**
 * Logs per second end to end (OTLP/HTTP protobuf, counted when acknowledged, i.e. committed)
 * against the rate of the stages alone in this process: decode + normalise, and the raw engine
 * insert of the same rows through the server's store in the server's batch size.
 */
export interface LogsRateResult {
  recordsPerRequest: number;
  clients: number;
  endToEndRecordsPerSec: number;
  decodeNormalizeRecordsPerSec: number;
  rawInsertRowsPerSec: number;
}

export async function measureLogsRate(opts: {
  seconds: number;
  clients: number;
  recordsPerRequest: number;
  batchRows: number;
}): Promise<LogsRateResult> {
  const factory = new RequestFactory(opts.recordsPerRequest, PROJECT1_TOKEN);
  let seq = 0;
  const next = () => factory.next('logs-proto', 'ab' + (seq++).toString(16).padStart(30, '0'));

  const lantern = await startLantern();
  let acked = 0;
  const end = Date.now() + opts.seconds * 1000;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: opts.clients }, async () => {
      while (Date.now() < end) {
        const res = await send(lantern.baseUrl, next());
        if (res.status === 200) acked += opts.recordsPerRequest;
      }
    }),
  );
  const endToEnd = acked / ((Date.now() - started) / 1000);
  await lantern.stop();
  removeDataDir(lantern.dataDir);

  // Stages alone: decode + normalise, then insert the rows straight into a fresh chDB.
  const body = next().body;
  const opt = { projectId: 1, groupByEnv: false, groupFuncsByService: false };
  const now = BigInt(Date.now()) * 1_000_000n;
  let decoded = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < 3000) {
    normalizeLogs(decodeLogsProto(body), opt, now);
    decoded += opts.recordsPerRequest;
  }
  const decodeRate = decoded / ((performance.now() - t0) / 1000);

  const dir = mkdtempSync(join(tmpdir(), 'lantern-logs-raw-'));
  const store = openChdbStore({
    path: join(dir, 'ch'),
    ttl: { spansDays: 30, metricsDays: 90 },
    maxMemoryUsage: 2 * 1024 ** 3,
    maxThreads: 2,
    spanMetrics: spanMetricsModel(DEFAULT_METRICS_FROM_SPANS),
  });
  await store.migrate();
  const batch = [];
  while (batch.length < opts.batchRows) batch.push(...normalizeLogs(decodeLogsProto(next().body), opt, now));
  let inserted = 0;
  const t1 = performance.now();
  while (performance.now() - t1 < opts.seconds * 500) {
    await store.insertSpans(batch);
    inserted += batch.length;
  }
  const rawRate = inserted / ((performance.now() - t1) / 1000);
  await store.close();
  removeDataDir(dir);
  return {
    recordsPerRequest: opts.recordsPerRequest,
    clients: opts.clients,
    endToEndRecordsPerSec: Math.round(endToEnd),
    decodeNormalizeRecordsPerSec: Math.round(decodeRate),
    rawInsertRowsPerSec: Math.round(rawRate),
  };
}
