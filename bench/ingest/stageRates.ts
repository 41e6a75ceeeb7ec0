import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalizeTraces } from '../../packages/server/src/ingest/normalize';
import { storable } from '../../packages/server/src/ingest/storableRows';
import { decodeTracesProto, type OtlpTracesRequest } from '../../packages/server/src/ingest/otlp';
import type { SpanRow } from '../../packages/server/src/ingest/spanRow';
import { sql } from '../../packages/server/src/storage/sql';
import { openChdbStore } from '../../packages/server/src/storage/telemetry';
import { encodeSpans, type EncodedSpans } from '../../packages/server/src/storage/telemetry/spanRowEncoding';
import { stageSpans } from '../../packages/server/src/storage/telemetry/spanStaging';
import { readPoolFile } from './requestPool';
import { DEFAULT_METRICS_FROM_SPANS, spanMetricsModel } from '../../packages/server/src/metricsFromSpans';

/**
 * The server's ingest stages measured one by one on the very bodies the load run sends, in a
 * process of its own (chDB binds one data directory per process, and the server must not share
 * the cores while this runs): protobuf decode, normalisation, the store's row encoding (TSV), and
 * the raw engine insert of those encoded rows (staged, then `insertStagedSpans`) in batches of the
 * server's batch size: the most the engine can take, with no JS work in the way.
 * Also counts what the server's data directory holds after the load run, as a check that every
 * acknowledged span was stored.
 *
 *   node --import tsx bench/ingest/stageRates.ts <pool file> <batch rows> <raw seconds> [server ch dir]
 *
 * Prints one JSON line (StageRates) on stdout.
 */
export interface StageRates {
  spans: number;
  rows: number;
  decodeSpansPerSec: number;
  normalizeSpansPerSec: number;
  decodeNormalizeSpansPerSec: number;
  /** SpanRow -> TSV bytes (runs in JS, on the prepare workers, when a request is accepted). */
  encodeRowsPerSec: number;
  /**
   * Microseconds per span of each prepare stage alone, one request at a time (wall time on one
   * core, in the order the workers run them): decode, normalise, storable (time bounds, lone
   * surrogates), encode (TSV of both tables). Also printed on stderr.
   */
  usPerSpan?: { decode: number; normalize: number; storable: number; encode: number; total: number };
  raw: { batches: number; rows: number; seconds: number; rowsPerSec: number; spansPerSec: number };
  /** Rows found in the server's data directory after its run (spans, events), if asked. */
  stored?: { spans: number; events: number };
}

const PROJECT = { projectId: 1, groupByEnv: false, groupFuncsByService: false };

/** Runs `fn` over the items repeatedly, at least one full pass and until `minMs` has passed. */
function timeLoop<T>(items: readonly T[], minMs: number, fn: (item: T) => void): { passes: number; ms: number } {
  const t0 = performance.now();
  let passes = 0;
  do {
    for (const item of items) fn(item);
    passes++;
  } while (performance.now() - t0 < minMs);
  return { passes, ms: performance.now() - t0 };
}

async function main(): Promise<void> {
  const [poolFile, batchRowsArg, rawSecondsArg, serverChDir] = process.argv.slice(2);
  const bodies = readPoolFile(poolFile);
  const batchRows = Number(batchRowsArg);
  const rawSeconds = Number(rawSecondsArg);

  const requests: OtlpTracesRequest[] = bodies.map((b) => decodeTracesProto(b));
  const spans = requests.reduce(
    (n, r) => n + r.resourceSpans.reduce((m, rs) => m + rs.scopeSpans.reduce((k, ss) => k + ss.spans.length, 0), 0),
    0,
  );
  const rowsPerRequest = requests.map((r) => normalizeTraces(r, PROJECT));
  const rows: SpanRow[] = rowsPerRequest.flat();

  // Warm the JIT, then time each stage alone and both together.
  timeLoop(bodies, 500, (b) => normalizeTraces(decodeTracesProto(b), PROJECT));
  const dec = timeLoop(bodies, 3000, (b) => decodeTracesProto(b));
  const norm = timeLoop(requests, 3000, (r) => normalizeTraces(r, PROJECT));
  const both = timeLoop(bodies, 3000, (b) => normalizeTraces(decodeTracesProto(b), PROJECT));

  // Server-sized batches cut from the pool's rows, cycling when the pool holds fewer.
  const batch = (i: number): SpanRow[] => {
    const out: SpanRow[] = new Array(batchRows);
    for (let j = 0; j < batchRows; j++) out[j] = rows[(i * batchRows + j) % rows.length];
    return out;
  };
  const encodeBatches = [batch(0), batch(1), batch(2)];
  // Encoding runs per request in the server (on the prepare pool), so it is timed per request here.
  const enc = timeLoop(rowsPerRequest, 2000, (r) => encodeSpans(r));
  const produced = rowsPerRequest.map((r) => ({ rows: r, rejected: 0, rejectedMessage: '' }));
  const stor = timeLoop(produced, 1000, (p) => storable(p));
  const encoded = encodeBatches.map((b) => encodeSpans(b));

  const dir = mkdtempSync(join(tmpdir(), 'lantern-bench-raw-'));
  const raw = { batches: 0, rows: 0, seconds: 0, rowsPerSec: 0, spansPerSec: 0 };
  try {
    const store = openChdbStore({
      path: dir,
      ttl: { spansDays: 30, metricsDays: 90 },
      maxMemoryUsage: 4 * 1024 ** 3,
      maxThreads: 2,
      spanMetrics: spanMetricsModel(DEFAULT_METRICS_FROM_SPANS),
    });
    await store.migrate();
    // Each batch is staged as the prepare workers do, then inserted (the staging write is timed too).
    const insert = (b: EncodedSpans) => store.insertStagedSpans([stageSpans(store.stagingDir, b)]);
    await insert(encoded[0]); // the first insert pays for part creation and code loading
    const t0 = performance.now();
    for (let i = 1; raw.batches < 5 || performance.now() - t0 < rawSeconds * 1000; i++) {
      const b = encoded[i % encoded.length];
      await insert(b);
      raw.batches++;
      raw.rows += b.rows;
    }
    raw.seconds = (performance.now() - t0) / 1000;
    raw.rowsPerSec = raw.rows / raw.seconds;
    raw.spansPerSec = (raw.rowsPerSec * spans) / rows.length;
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  let stored: StageRates['stored'];
  if (serverChDir) {
    const store = openChdbStore({
      path: serverChDir,
      ttl: { spansDays: 30, metricsDays: 90 },
      maxMemoryUsage: 4 * 1024 ** 3,
      maxThreads: 2,
    });
    const [c] = await store.query<{ spans: string; events: string }>(
      sql`SELECT countIf(event_name = '') AS spans, countIf(event_name != '') AS events FROM spans_index`,
    );
    stored = { spans: Number(c.spans), events: Number(c.events) };
    await store.close();
  }

  const perSec = (n: number, ms: number) => (n * 1000) / ms;
  const us = (t: { passes: number; ms: number }) => Math.round(((t.ms * 1000) / (spans * t.passes)) * 100) / 100;
  const usPerSpan = { decode: us(dec), normalize: us(norm), storable: us(stor), encode: us(enc), total: 0 };
  usPerSpan.total =
    Math.round((usPerSpan.decode + usPerSpan.normalize + usPerSpan.storable + usPerSpan.encode) * 100) / 100;
  process.stderr.write(
    `prepare stages, µs per span on one core: decode ${usPerSpan.decode}, normalise ${usPerSpan.normalize}, ` +
      `storable ${usPerSpan.storable}, encode ${usPerSpan.encode} (total ${usPerSpan.total})\n`,
  );
  const result: StageRates = {
    spans,
    rows: rows.length,
    decodeSpansPerSec: perSec(spans * dec.passes, dec.ms),
    normalizeSpansPerSec: perSec(spans * norm.passes, norm.ms),
    decodeNormalizeSpansPerSec: perSec(spans * both.passes, both.ms),
    encodeRowsPerSec: perSec(rows.length * enc.passes, enc.ms),
    usPerSpan,
    raw,
    stored,
  };
  process.stdout.write(`STAGE_RATES ${JSON.stringify(result)}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
