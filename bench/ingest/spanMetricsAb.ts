import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDataDir, startLantern, type RunningLantern } from '../../e2e/harness';
import type { LoadResult } from './loadClients';

/**
 * The cost of metrics from spans (`metrics_from_spans`) on ingest, in one run: the same load against
 * a fresh server with the built-in definitions ("with") and with `metrics_from_spans: []`
 * ("without"), alternating so that a machine that gets busier or quieter during the run weighs on
 * both alike. `node --import tsx bench/ingest/run.ts --span-metrics-ab 2`.
 */
export interface AbRound {
  variant: 'with' | 'without';
  spansPerSecond: number;
  p50Ms: number;
  serverCores: number;
  throttled: number;
  errors: number;
}

export async function runSpanMetricsAb(opts: {
  rounds: number;
  env: Record<string, string>;
  workDir: string;
  measure(lantern: RunningLantern): Promise<{ load: LoadResult; cpu: { serverCores: number } }>;
}): Promise<AbRound[]> {
  const without = join(opts.workDir, 'no-span-metrics.yml');
  writeFileSync(without, 'metrics_from_spans: []\n');
  const out: AbRound[] = [];
  for (let r = 0; r < opts.rounds; r++) {
    for (const variant of ['with', 'without'] as const) {
      const env = variant === 'with' ? opts.env : { ...opts.env, LANTERN_CONFIG: without };
      const lantern = await startLantern({ env });
      try {
        console.log(`round ${r + 1}/${opts.rounds}, ${variant} metrics from spans...`);
        const { load, cpu } = await opts.measure(lantern);
        const sorted = [...load.latenciesMs].sort((a, b) => a - b);
        out.push({
          variant,
          spansPerSecond: load.spans / (load.windowMs / 1000),
          p50Ms: sorted[Math.floor(sorted.length / 2)] ?? NaN,
          serverCores: cpu.serverCores,
          throttled: load.throttled,
          errors: load.errors,
        });
      } finally {
        await lantern.stop();
        removeDataDir(lantern.dataDir);
      }
    }
  }
  return out;
}

export function formatAb(rounds: readonly AbRound[]): string {
  const mean = (v: AbRound['variant']) => {
    const xs = rounds.filter((r) => r.variant === v).map((r) => r.spansPerSecond);
    return xs.reduce((a, b) => a + b, 0) / xs.length;
  };
  const lines = rounds.map(
    (r) =>
      `  ${r.variant.padEnd(8)} ${(r.spansPerSecond / 1000).toFixed(1)}k spans/s, p50 ${r.p50Ms.toFixed(0)} ms, server ${r.serverCores.toFixed(2)} cores, 429 ${r.throttled}, errors ${r.errors}`,
  );
  const w = mean('with');
  const wo = mean('without');
  return [
    'metrics from spans, A/B:',
    ...lines,
    `  mean: with ${(w / 1000).toFixed(1)}k, without ${(wo / 1000).toFixed(1)}k spans/s: cost ${((1 - w / wo) * 100).toFixed(1)} % of throughput`,
  ].join('\n');
}
