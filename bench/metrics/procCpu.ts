import { readFileSync } from 'node:fs';

/**
 * CPU seconds a process (all its threads) has used, from /proc: the server's cost per datapoint,
 * which a loaded machine changes far less than the rate (Lantern's engine runs in its process).
 */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in USER_HZ (100 on Linux)
}
