import { parseArgs } from 'node:util';
import { removeDataDir, signIn, startLantern } from '@lantern/testkit/harness';
import { openTail, type OpenTail } from '@lantern/testkit/tail';
import { readCpuSeconds } from '../ingest/procStatus';

/**
 * What open live tails cost an idle server (issue 38: 20 idle tails must add < 5 % CPU): the
 * server's CPU (all threads, chDB's included, /proc/<pid>/stat) over windows without tails and
 * windows with `--tails` tails open on an idle project, alternated (the server's own minute jobs
 * fall in both), with the default tail settings (a poll a second). Prints each window and the
 * medians in % of one core. Figures: docs/benchmarks.md ("Live tail: idle tails").
 *
 *   node --import tsx bench/tail/idleStreams.ts [--tails 20] [--window-s 20] [--rounds 3]
 */
const { values: args } = parseArgs({
  options: {
    tails: { type: 'string', default: '20' },
    'window-s': { type: 'string', default: '20' },
    rounds: { type: 'string', default: '3' },
  },
});
const tails = Number(args.tails);
const windowMs = Number(args['window-s']) * 1000;
const lantern = await startLantern({ env: { LANTERN_TAIL_MAX_STREAMS_PER_USER: String(tails) } });
const pid = lantern.process.pid!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** % of one core the server used over the next window. */
async function windowCpu(): Promise<number> {
  const before = readCpuSeconds(pid)!;
  await sleep(windowMs);
  return ((readCpuSeconds(pid)! - before) / (windowMs / 1000)) * 100;
}

try {
  const cookie = await signIn(lantern.baseUrl);
  await sleep(5000); // start-up work (template sync, first jobs) out of the way
  const idle: number[] = [];
  const open: number[] = [];
  for (let round = 0; round < Number(args.rounds); round++) {
    idle.push(await windowCpu());
    const opened: OpenTail[] = [];
    for (let i = 0; i < tails; i++) {
      const t = await openTail(lantern.baseUrl, cookie, {
        system: ['log:all'],
        query: `where service.name = "svc-${i}"`,
      });
      if (t.status !== 200) throw new Error(`tail ${i} refused: ${JSON.stringify(t.error)}`);
      opened.push(t);
    }
    await sleep(2000);
    open.push(await windowCpu());
    for (const t of opened) t.close();
    await sleep(2000);
    console.log(
      `round ${round + 1}: no tails ${idle.at(-1)!.toFixed(2)} %, ${tails} tails ${open.at(-1)!.toFixed(2)} %`,
    );
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(
    `median: no tails ${median(idle).toFixed(2)} % of a core, ${tails} idle tails ${median(open).toFixed(2)} % (+${(median(open) - median(idle)).toFixed(2)} points)`,
  );
} finally {
  await lantern.stop();
  removeDataDir(lantern.dataDir);
}
