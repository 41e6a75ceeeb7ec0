/**
 * The CPU of a server start, as every test server starts (testkit `startLantern`: the bundle on a
 * copy of the migrated store, one prepare thread, its metrics warm-up): the server process's user +
 * system time over all its threads (/proc/<pid>/stat) 1.5 s after "Lantern is serving", when the
 * start's background work is done. With `--other <main.js>` (another version's bundle, e.g. from
 * `git worktree add` of the base and `node scripts/buildServer.mjs` there) the two alternate, so
 * both see the same load; the medians are compared. `--telemetry clickhouse` starts them on the remote
 * store (through the test kit's ClickHouse stand-in, as in the `integration-ch` project).
 *
 *   npx tsx bench/server/start.ts [--rounds 5] [--other /path/to/dist/<hash>/main.js] [--telemetry clickhouse]
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { removeDataDir, serverBundle, startLantern } from '@lantern/testkit/harness';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    other: { type: 'string' },
    telemetry: { type: 'string', default: 'embedded' },
  },
});
const ROUNDS = Number(args.rounds);
const TELEMETRY = args.telemetry === 'clickhouse' ? 'clickhouse' : 'embedded';
/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux). */
const HZ = 100;

/** User + system CPU seconds of a process so far, all threads. */
function cpuSeconds(pid: number): number {
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / HZ;
}

async function oneStart(main: string): Promise<number> {
  // As under Vitest: one prepare thread (startLantern's default in a test).
  const server = await startLantern({ serverMain: main, ingestWorkers: 1, telemetry: TELEMETRY });
  try {
    await new Promise((r) => setTimeout(r, 1500));
    return cpuSeconds(server.process.pid ?? 0);
  } finally {
    await server.stop();
    removeDataDir(server.dataDir);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const mains = { this: await serverBundle(), ...(args.other ? { other: args.other } : {}) };
const seconds: Record<string, number[]> = Object.fromEntries(Object.keys(mains).map((k) => [k, []]));
// A first start of each makes its migrated-store template (not counted).
for (const main of Object.values(mains)) await oneStart(main);
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, main] of Object.entries(mains)) {
    const s = await oneStart(main);
    seconds[name].push(s);
    console.log(`round ${round + 1} ${name}: ${s.toFixed(2)} CPU-s (load ${loadavg()[0].toFixed(1)})`);
  }
}
for (const [name, xs] of Object.entries(seconds))
  console.log(`${name} (${mains[name as keyof typeof mains]}): median ${median(xs).toFixed(2)} CPU-s a start`);
