import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { removeDataDir } from '@lantern/testkit/harness';
import { runDurability } from '@lantern/testkit/hardening/durability';
import { runFuzz } from '@lantern/testkit/hardening/fuzz';
import { runOverload } from '@lantern/testkit/hardening/overload';
import { measureLogsRate } from './logsRate';

/**
 * Long forms of the ingest hardening checks (the CI runs short forms of the first three in
 * packages/server/src/ingest/{durability,backpressure,fuzz}.int.test.ts):
 *
 *   node --import tsx bench/ingest-hardening/run.ts durability [--trials 100]
 *   node --import tsx bench/ingest-hardening/run.ts overload [--seconds 60] [--multiplier 3]
 *   node --import tsx bench/ingest-hardening/run.ts fuzz [--http 20000] [--grpc 3000] [--seed N]
 *   node --import tsx bench/ingest-hardening/run.ts logs-rate [--seconds 20]
 *
 * Each prints its result as JSON and writes it to bench/results/ingest-hardening-<name>.json;
 * the exit code is 1 when a check fails (an acknowledged row lost, a crash, a 5xx...).
 */
const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    trials: { type: 'string', default: '100' },
    seconds: { type: 'string' },
    multiplier: { type: 'string', default: '3' },
    http: { type: 'string', default: '20000' },
    grpc: { type: 'string', default: '3000' },
    seed: { type: 'string' },
    clients: { type: 'string' },
  },
});
const n = (v: string | undefined, d: number) => (v === undefined ? d : Number(v));
const seed = n(args.seed, Date.now() % 1_000_000);
const RESULTS = join(fileURLToPath(new URL('../..', import.meta.url)), 'bench/results');

async function main(command: string | undefined): Promise<boolean> {
  switch (command) {
    case 'durability': {
      const r = await runDurability({
        trials: n(args.trials, 100),
        clients: n(args.clients, 6),
        killAfterMs: [200, 2500],
        rowsPerRequest: 20,
        seed,
        onTrial: (t, acked) => process.stderr.write(`trial ${t + 1}: ${acked} requests acknowledged so far\n`),
      });
      removeDataDir(r.dataDir);
      report('durability', { seed, ...r, lostCount: r.lost.length, lost: r.lost.slice(0, 20) });
      return r.lost.length === 0;
    }
    case 'overload': {
      const r = await runOverload({
        seconds: n(args.seconds, 60),
        calibrateSeconds: 10,
        calibrateClients: 32,
        multiplier: n(args.multiplier, 3),
        rowsPerRequest: 200,
        maxInFlight: 512,
        kinds: ['traces-proto', 'logs-proto'],
      });
      removeDataDir(r.dataDir);
      report('overload', {
        ...r,
        peakRssMiB: Math.round(r.peakRssBytes / 1024 ** 2),
        lostCount: r.lost.length,
        lost: r.lost.slice(0, 20),
      });
      return (
        r.lost.length === 0 &&
        !(r.statuses['0'] > 0) &&
        Object.keys(r.statuses).every((s) => ['200', '429'].includes(s))
      );
    }
    case 'fuzz': {
      const r = await runFuzz({
        httpCases: n(args.http, 20000),
        grpcCases: n(args.grpc, 3000),
        seed,
        concurrency: 12,
        timeoutMs: 15_000,
      });
      report('fuzz', { seed, ...r });
      return r.failures.length === 0 && r.aliveAfter;
    }
    case 'logs-rate': {
      const r = await measureLogsRate({
        seconds: n(args.seconds, 20),
        clients: n(args.clients, 8),
        recordsPerRequest: 1000,
        batchRows: 20_000,
      });
      report('logs-rate', r);
      return true;
    }
    default:
      console.error('usage: run.ts durability|overload|fuzz|logs-rate [options] (see the comment at the top)');
      return false;
  }
}

function report(name: string, result: object): void {
  const text = JSON.stringify(result, null, 2);
  console.log(text);
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, `ingest-hardening-${name}.json`), text + '\n');
}

main(positionals[0]).then(
  (ok) => process.exit(ok ? 0 : 1),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
