import { readFileSync } from 'node:fs';

/** Resident set size of a process in bytes (Linux /proc), or 0 once it is gone. */
export function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples a process's RSS every `everyMs` until stopped; returns the peak seen. */
export function watchRss(pid: number, everyMs = 200): { stop(): number } {
  let peak = rssBytes(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssBytes(pid));
    },
  };
}
