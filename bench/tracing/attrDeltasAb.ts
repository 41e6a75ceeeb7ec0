import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openChdbStore } from '../../packages/server/src/storage/telemetry';
import { createAttrDeltasService } from '../../packages/server/src/tracing/attrDeltas/attrDeltas.service';
import { deltaCountsSql } from '../../packages/server/src/tracing/attrDeltas/attrDeltasSql';
import { compileQuery } from '../../packages/server/src/tracing/query/compile';
import { pct } from './benchCalls';

/**
 * "What changed" read from spans_index only against read from its trace sample spans_sample
 * (telemetry migration 18), in process on the `bench/tracing` data set (load it with
 * `bench/tracing/run.ts`), the two alternated request by request so both see the same load: p50 and
 * the ratio per case, whether both answers rank the same keys first, and the p50 of the exact
 * counts alone (both read them from spans_index).
 *
 *   node --import tsx bench/tracing/attrDeltasAb.ts [--data-dir bench/results/tracing-data] [--runs 5]
 *     [--sample-spans N]   # both services compare about N spans a side (default: SAMPLE_SPANS)
 */
const { values: args } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    runs: { type: 'string', default: '5' },
    'sample-spans': { type: 'string' },
  },
});
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DATA_DIR = args['data-dir'] ?? join(ROOT, 'bench/results/tracing-data');
const marker = JSON.parse(readFileSync(join(DATA_DIR, 'bench-tracing.json'), 'utf8')) as { endMs: number };

const store = openChdbStore({
  path: join(DATA_DIR, 'ch'),
  ttl: { spansDays: 30, metricsDays: 30 },
  maxMemoryUsage: 4 * 1024 ** 3,
  maxThreads: 2,
  spanMetrics: null,
});
await store.migrate();
const sampleSpans = args['sample-spans'] ? { sampleSpans: Number(args['sample-spans']) } : {};
const raw = createAttrDeltasService(store, { ...sampleSpans, sampleTable: false });
const sampled = createAttrDeltasService(store, sampleSpans);
const scope = (hours: number, systems: string[]) => ({
  projectId: 1,
  gte: new Date(marker.endMs - hours * 3600_000),
  lt: new Date(marker.endMs),
  systems,
});
const cases: [string, number, string[], string][] = [
  ['24h, all, .duration > 100ms', 24, [], 'where .duration > 100ms'],
  ['24h, spans:all, errors', 24, ['spans:all'], 'where .status_code = "error"'],
  ['24h, http:all, errors', 24, ['http:all'], 'where .status_code = "error"'],
  ['1h, all, .duration > 100ms', 1, [], 'where .duration > 100ms'],
];
try {
  for (const [name, hours, systems, selection] of cases) {
    const s = scope(hours, systems);
    const q = compileQuery('', 'filters', { minutes: hours * 60 });
    const sel = compileQuery(selection, 'filters', { minutes: hours * 60 });
    const tested = new Set(sel.whereNames.map((n) => n.attr));
    const time = async (svc: typeof raw) => {
      const t = performance.now();
      const answer = await svc.attrDeltas(s, q, sel, tested);
      return { ms: performance.now() - t, answer };
    };
    await time(raw);
    await time(sampled);
    const ms: [number[], number[], number[]] = [[], [], []];
    let answers = [await time(raw), await time(sampled)].map((x) => x.answer);
    for (let i = 0; i < Number(args.runs); i++) {
      const a = await time(raw);
      const b = await time(sampled);
      ms[0].push(a.ms);
      ms[1].push(b.ms);
      const t = performance.now();
      await store.query(deltaCountsSql(s, q, sel));
      ms[2].push(performance.now() - t);
      answers = [a.answer, b.answer];
    }
    const [p0, p1, pc] = ms.map((m) =>
      pct(
        [...m].sort((x, y) => x - y),
        50,
      ),
    );
    const top = (a: (typeof answers)[0]) => a.attrs.slice(0, 3).map((x) => `${x.key} ${x.score}`);
    console.log(
      `${name.padEnd(30)} spans_index p50 ${p0.toFixed(0).padStart(5)} ms  spans_sample p50 ${p1.toFixed(0).padStart(5)} ms  ratio ${(p0 / p1).toFixed(1)}  (counts alone p50 ${pc.toFixed(0)} ms)`,
    );
    console.log(
      `${''.padEnd(30)} sampled ${answers[0].selection.sampled}/${answers[0].baseline.sampled} vs ${answers[1].selection.sampled}/${answers[1].baseline.sampled}; top ${top(answers[0]).join(', ')} | ${top(answers[1]).join(', ')}`,
    );
  }
} finally {
  await store.close();
}
