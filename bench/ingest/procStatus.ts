import { readFileSync } from 'node:fs';

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
