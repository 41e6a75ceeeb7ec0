import { removeDataDir, startLantern, type RunningLantern, type StartOptions } from '@lantern/testkit/harness';
import type { LoadResult } from './loadClients';

/**
 * Two server set-ups side by side in one run: the same load against a fresh server of each,
 * alternating round by round so that a machine that gets busier or quieter during the run weighs
 * on both alike. Used for `--span-metrics-ab N` (with / without metrics from spans) and
 * `--remote-ab N` (embedded chDB / the remote ClickHouse store through the test stand-in).
 */
export interface AbVariant {
  name: string;
  start: StartOptions;
}

export interface AbRound {
  variant: string;
  spansPerSecond: number;
  p50Ms: number;
  serverCores: number;
  /** The load clients (this process), everything else on the machine, idle cores, stolen by the host. */
  clientCores?: number;
  otherCores?: number;
  idleCores?: number;
  stealCores?: number;
  throttled: number;
  errors: number;
}

export async function runAb(opts: {
  rounds: number;
  variants: readonly [AbVariant, AbVariant];
  measure(lantern: RunningLantern): Promise<{
    load: LoadResult;
    cpu: {
      serverCores: number;
      clientCores?: number;
      machineBusyCores?: number;
      idleCores?: number;
      stealCores?: number;
    };
  }>;
}): Promise<AbRound[]> {
  const out: AbRound[] = [];
  for (let r = 0; r < opts.rounds; r++) {
    for (const variant of opts.variants) {
      const lantern = await startLantern(variant.start);
      try {
        console.log(`round ${r + 1}/${opts.rounds}, ${variant.name}...`);
        const { load, cpu } = await opts.measure(lantern);
        const sorted = [...load.latenciesMs].sort((a, b) => a - b);
        out.push({
          variant: variant.name,
          spansPerSecond: load.spans / (load.windowMs / 1000),
          p50Ms: sorted[Math.floor(sorted.length / 2)] ?? NaN,
          serverCores: cpu.serverCores,
          clientCores: cpu.clientCores,
          otherCores:
            cpu.machineBusyCores === undefined || cpu.clientCores === undefined
              ? undefined
              : cpu.machineBusyCores - cpu.serverCores - cpu.clientCores,
          idleCores: cpu.idleCores,
          stealCores: cpu.stealCores,
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

/** Each round, then the means and the second variant's throughput relative to the first's. */
export function formatAb(title: string, rounds: readonly AbRound[]): string {
  const names = [...new Set(rounds.map((r) => r.variant))];
  const mean = (v: string) => {
    const xs = rounds.filter((r) => r.variant === v).map((r) => r.spansPerSecond);
    return xs.reduce((a, b) => a + b, 0) / xs.length;
  };
  const lines = rounds.map(
    (r) =>
      `  ${r.variant.padEnd(10)} ${(r.spansPerSecond / 1000).toFixed(1)}k spans/s, p50 ${r.p50Ms.toFixed(0)} ms, server ${r.serverCores.toFixed(2)} cores` +
      (r.idleCores === undefined
        ? ''
        : ` (clients ${r.clientCores?.toFixed(2)}, other ${r.otherCores?.toFixed(2)}, idle ${r.idleCores.toFixed(2)}, steal ${r.stealCores?.toFixed(2)})`) +
      `, 429 ${r.throttled}, errors ${r.errors}`,
  );
  const [a, b] = names.map(mean);
  return [
    `${title}, A/B:`,
    ...lines,
    `  mean: ${names[0]} ${(a / 1000).toFixed(1)}k, ${names[1]} ${(b / 1000).toFixed(1)}k spans/s: ${names[0]} / ${names[1]} = ${(a / b).toFixed(2)}`,
  ].join('\n');
}
