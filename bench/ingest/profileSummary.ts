import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Self time by function and by file from a V8 `.cpuprofile` (what `node --cpu-prof` writes), so a
 * run with `--cpu-prof` can say where the server's main thread spent its time without a browser.
 * chDB's own threads are not in it: a native call shows as self time of the JS frame that made it.
 *
 *   node --import tsx bench/ingest/profileSummary.ts <file.cpuprofile> [top]
 */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  byFunction: { name: string; ms: number; pct: number }[];
  byFile: { file: string; ms: number; pct: number }[];
  /** Lantern's own functions (under packages/) by total time, callees included. */
  inclusive: { name: string; ms: number; pct: number }[];
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function shortFile(url: string): string {
  if (!url) return '(native)';
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  return path.startsWith(ROOT) ? relative(ROOT, path) : path;
}

export function summariseProfile(path: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  let totalUs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + dt);
    totalUs += dt;
  }
  const keyOf = (id: number) => {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    // Code compiled on the fly (tsx) reports line 0: leave the line out rather than mislead.
    const line = lineNumber > 0 ? `:${lineNumber + 1}` : '';
    return url ? `${functionName || '(anonymous)'} ${shortFile(url)}${line}` : functionName;
  };
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusiveMs = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    const seen = new Set<string>(); // recursion counts once per sample
    for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parent.get(id)) {
      const key = keyOf(id);
      if (seen.has(key) || !key.includes('packages/')) continue;
      seen.add(key);
      inclusiveMs.set(key, (inclusiveMs.get(key) ?? 0) + dt);
    }
  }
  const fnMs = new Map<string, number>();
  const fileMs = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const { functionName, url } = byId.get(id)!.callFrame;
    const file = shortFile(url);
    const name = keyOf(id);
    fnMs.set(name, (fnMs.get(name) ?? 0) + us / 1000);
    const fileKey = url ? file : functionName;
    fileMs.set(fileKey, (fileMs.get(fileKey) ?? 0) + us / 1000);
  }
  const totalMs = totalUs / 1000;
  const rank = <K extends string>(m: Map<string, number>, key: K) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(
        ([k, ms]) =>
          ({ [key]: k, ms: Math.round(ms), pct: Math.round((1000 * ms) / totalMs) / 10 }) as { [P in K]: string } & {
            ms: number;
            pct: number;
          },
      );
  return {
    totalMs: Math.round(totalMs),
    byFunction: rank(fnMs, 'name'),
    byFile: rank(fileMs, 'file'),
    inclusive: rank(inclusiveMs, 'name'),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error('usage: profileSummary.ts <file.cpuprofile> [top]');
    process.exit(2);
  }
  const s = summariseProfile(file, Number(top ?? 25));
  console.log(`total ${s.totalMs} ms of samples\n\nself time by function:`);
  for (const f of s.byFunction) console.log(`${String(f.pct).padStart(5)}%  ${String(f.ms).padStart(7)} ms  ${f.name}`);
  console.log('\nself time by file:');
  for (const f of s.byFile) console.log(`${String(f.pct).padStart(5)}%  ${String(f.ms).padStart(7)} ms  ${f.file}`);
  console.log('\nLantern functions by total time (callees included):');
  for (const f of s.inclusive) console.log(`${String(f.pct).padStart(5)}%  ${String(f.ms).padStart(7)} ms  ${f.name}`);
}
