import {
  compileSpanMetrics,
  DEFAULT_METRICS_FROM_SPANS,
  spanMetricPoints,
  spanMetricsModel,
} from '../../packages/server/src/metricsFromSpans';
import { normalizeTraces } from '../../packages/server/src/ingest/normalize';
import { decodeTracesProto } from '../../packages/server/src/ingest/otlp';
import type { SpanRow } from '../../packages/server/src/ingest/spanRow';
import type { FoldedSpanMetrics } from '../../packages/server/src/storage/telemetry/spanMetricRows';
import { createSpanMetricWriter } from '../../packages/server/src/storage/telemetry/spanMetricWriter';
import type { SpanMetricJournal } from '../../packages/server/src/storage/telemetry/spanMetricJournal';
import { buildRequestPool } from './requestPool';

/**
 * The JS cost of metrics from spans per span row, by step, on the ingest bench's requests
 * (32 x 1,000 spans): the fold of a request's rows into points (on a prepare worker in the server),
 * the points' structured clone (their trip to the main thread), and the batch writer's work on the
 * main thread for batches of 4 requests (journal text, the fold into the points waiting in memory,
 * and every 25 batches the lines of those points, as a flush makes them), with a journal that only
 * counts the text and no engine.
 *
 *   node --import tsx bench/ingest/spanMetricsCost.ts [--seconds 3]
 */
const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1]) || 3;
const pool = buildRequestPool({ requests: 32, spansPerRequest: 1000, seed: 42 });
const project = { projectId: 1, groupByEnv: false, groupFuncsByService: false };
const requests: SpanRow[][] = pool.bodies.map((b) => normalizeTraces(decodeTracesProto(b), project));
const rowCount = requests.reduce((n, r) => n + r.length, 0);
const metrics = compileSpanMetrics(DEFAULT_METRICS_FROM_SPANS);

/** µs per span row of `fn` run over every request, repeated for `seconds` after a warm-up. */
function perRow(fn: (i: number) => void): number {
  const pass = () => {
    for (let i = 0; i < requests.length; i++) fn(i);
  };
  for (let w = 0; w < 5; w++) pass();
  let passes = 0;
  const t0 = performance.now();
  do {
    pass();
    passes++;
  } while (performance.now() - t0 < seconds * 1000);
  return ((performance.now() - t0) * 1000) / (passes * rowCount);
}

const folded: FoldedSpanMetrics[] = requests.map((r) => spanMetricPoints(metrics, r)!);
const pointCount = folded.reduce((n, p) => n + p.heads.length, 0);
const fold = perRow((i) => spanMetricPoints(metrics, requests[i]));
const clone = perRow((i) => structuredClone(folded[i]));

let journalBytes = 0;
const journal: SpanMetricJournal = {
  append: (text) => {
    journalBytes += text.length;
    return Promise.resolve();
  },
  segment: 0,
  cut: () => 0,
  drop: () => Promise.resolve(),
  leftovers: () => [],
};
const writer = createSpanMetricWriter(
  spanMetricsModel(DEFAULT_METRICS_FROM_SPANS)!,
  { insertRows: () => Promise.resolve(), insertTsv: () => Promise.resolve(), journal },
  Date.now,
  0,
);
// Each batch gets fresh clones, as from the workers (their cost is not counted here).
const batches = Array.from({ length: 8 }, (_, b) => [0, 1, 2, 3].map((k) => folded[(b * 4 + k) % folded.length]));
let batchRows = 0;
let writeMs = 0;
const t0 = performance.now();
for (let n = 0; performance.now() - t0 < seconds * 1000 || n < 16; n++) {
  const lists = structuredClone(batches[n % batches.length]);
  const t = performance.now();
  await writer.write(lists);
  if (n % 25 === 24) await writer.flush();
  writeMs += performance.now() - t;
  batchRows += [0, 1, 2, 3].reduce((s, k) => s + requests[((n % 8) * 4 + k) % requests.length].length, 0);
}
const write = (writeMs * 1000) / batchRows;

console.log(
  `${requests.length} requests, ${rowCount} span rows, ${pointCount} points (${(pointCount / rowCount).toFixed(2)} a row); ` +
    `journal ${(journalBytes / batchRows).toFixed(0)} bytes a row`,
);
console.log(`fold on the worker        ${fold.toFixed(2)} µs a row`);
console.log(`clone to the main thread  ${clone.toFixed(2)} µs a row`);
console.log(`batch write (main thread) ${write.toFixed(2)} µs a row (batches of 4 requests, a flush every 25)`);
