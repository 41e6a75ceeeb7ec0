import { readdirSync, readFileSync } from 'node:fs';

/**
 * Linux /proc readings for the server process: peak and current resident memory, and CPU time
 * (to tell how much of the two cores the server had while the load clients used the rest).
 */
export function readMemoryKb(pid: number): { rssKb: number; hwmKb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rssKb: field('VmRSS'), hwmKb: field('VmHWM') };
  } catch {
    return null;
  }
}

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** User + system CPU seconds the process has used so far (all its threads, chDB's included). */
export function readCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/**
 * CPU seconds per thread of the process so far, keyed `name#tid` (chDB's query, merge and pool
 * threads by name; the Node main thread, workers and V8 helpers are all `node`).
 */
export function readThreadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const st = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = st.slice(st.indexOf('(') + 1, st.lastIndexOf(')'));
      const f = st.slice(st.lastIndexOf(') ') + 2).split(' ');
      out.set(`${name}#${tid}`, (Number(f[11]) + Number(f[12])) / CLOCK_TICKS);
    } catch {
      /* the thread ended */
    }
  }
  return out;
}

/**
 * The CPU seconds each thread used between two readings, summed by thread name (`node` threads
 * one by one, since the main thread, workers and V8 helpers share the name), largest first.
 */
export function threadCpuUsed(before: Map<string, number>, after: Map<string, number>): [string, number][] {
  const byName = new Map<string, number>();
  for (const [key, s] of after) {
    const used = s - (before.get(key) ?? 0);
    if (used <= 0) continue;
    const name = key.startsWith('node#') ? key : key.slice(0, key.lastIndexOf('#')).replace(/[\d-]+$/, '');
    byName.set(name, (byName.get(name) ?? 0) + used);
  }
  return [...byName].sort((a, b) => b[1] - a[1]);
}

/** The server's CPU by role, µs per span: see `threadRoles`. */
export interface ThreadRoles {
  /** The process's CPU (every thread, those that ended during the run included). */
  process: number;
  main: number;
  /** The `workers` busiest `node` threads other than the main thread: the prepare workers. */
  workers: number;
  /** Other `node` threads (libuv's pool, V8's helpers, engine threads that never took a name). */
  otherNode: number;
  /** Threads the engine named (ThreadPool, MergeMutate, QueryPipelineEx...). */
  engine: number;
  /** The process's CPU that no thread alive at the end holds (threads that ended: the engine's pool shrinks). */
  ended: number;
}

/**
 * `threadCpuUsed`'s threads summed by role. An engine thread is named by the task it runs last, so
 * its name at the end says little (the same work shows as ThreadPool in one run and
 * QueryPipelineEx or Segmentator in another) and a thread that ended is in no thread's figure:
 * compare builds by these sums, not by one thread name.
 */
export function threadRoles(
  threads: readonly [string, number][],
  pid: number,
  workers: number,
  processSeconds: number,
  spans: number,
): ThreadRoles {
  const us = (s: number) => (s * 1e6) / spans;
  const node = threads.filter(([name]) => name.startsWith('node#'));
  const main = node.find(([name]) => name === `node#${pid}`)?.[1] ?? 0;
  const others = node.filter(([name]) => name !== `node#${pid}`).map(([, s]) => s);
  const busiest = others.slice(0, workers).reduce((n, s) => n + s, 0);
  const otherNode = others.slice(workers).reduce((n, s) => n + s, 0);
  const engine = threads.filter(([name]) => !name.startsWith('node#')).reduce((n, [, s]) => n + s, 0);
  const all = threads.reduce((n, [, s]) => n + s, 0);
  return {
    process: us(processSeconds),
    main: us(main),
    workers: us(busiest),
    otherNode: us(otherNode),
    engine: us(engine),
    ended: us(Math.max(0, processSeconds - all)),
  };
}

/** Samples memory every `everyMs` so a peak is kept even if the process exits before we read it. */
export function watchMemory(pid: number, everyMs = 250): { stop(): { peakRssKb: number; hwmKb: number } } {
  let peakRssKb = 0;
  let hwmKb = 0;
  const sample = () => {
    const m = readMemoryKb(pid);
    if (!m) return;
    peakRssKb = Math.max(peakRssKb, m.rssKb);
    hwmKb = Math.max(hwmKb, m.hwmKb);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      sample();
      clearInterval(timer);
      return { peakRssKb, hwmKb };
    },
  };
}

/**
 * The whole machine's CPU seconds so far (/proc/stat): busy (user, nice, system, irq, softirq),
 * idle (idle + iowait) and steal (taken by the host), to tell whether a run's cores were busy
 * with the server, the clients, something else, or idle.
 */
export function readMachineCpu(): { busy: number; idle: number; steal: number } {
  const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return {
    busy: (user + nice + system + irq + softirq) / CLOCK_TICKS,
    idle: (idle + iowait) / CLOCK_TICKS,
    steal: steal / CLOCK_TICKS,
  };
}
