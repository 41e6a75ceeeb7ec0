import type { Config } from '../../packages/server/src/config';
import type { LoadResult } from './loadClients';
import type { ProfileSummary } from './profileSummary';
import type { StageRates } from './stageRates';
import type { ThreadRoles } from './procStatus';

/** Everything one run measured (also what `--json` writes), and its printed form. */
export interface IngestBenchResult {
  date: string;
  machine: { cpus: number; model: string; node: string };
  command: string;
  settings: {
    seconds: number;
    warmup: number;
    clients: number;
    spansPerRequest: number;
    poolRequests: number;
    serverEnv: Record<string, string>;
    ingest: Config['ingest'];
  };
  pool: { bytesPerRequest: number; spanAttrs: number; totalAttrs: number; eventsPerSpan: number };
  load: LoadResult;
  cpu: {
    loadSeconds: number;
    serverCores: number;
    clientCores: number;
    threadsUsPerSpan?: [string, number][];
    rolesUsPerSpan?: ThreadRoles;
  };
  serverMemory: { peakRssKb: number; hwmKb: number };
  stages: StageRates | null;
  profile: (ProfileSummary & { file: string }) | null;
}

export const TARGET_SPANS_PER_SEC = 25_000;

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const k = (n: number) => (n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : n.toFixed(0));
const ms = (n: number) => `${n.toFixed(n < 100 ? 1 : 0)} ms`;
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

export function formatSummary(r: IngestBenchResult): string {
  const { load, stages } = r;
  const seconds = load.windowMs / 1000;
  const e2e = load.spans / seconds;
  const lat = [...load.latenciesMs].sort((a, b) => a - b);
  const steady = load.perSecond.slice(0, Math.floor(seconds));
  const lines = [
    '',
    `== Trace ingest, OTLP/HTTP protobuf (${r.date.slice(0, 10)}, ${r.machine.cpus} x ${r.machine.model}, Node ${r.machine.node})`,
    `load            ${r.settings.clients} clients x ${r.settings.spansPerRequest} spans/request, ${r.settings.seconds} s after ${r.settings.warmup} s warm-up; ` +
      `${r.pool.bytesPerRequest.toLocaleString('en')} B/request; ${r.pool.spanAttrs.toFixed(1)} span attrs (+ resource: ${r.pool.totalAttrs.toFixed(1)}); ` +
      `${r.pool.eventsPerSpan.toFixed(3)} events/span`,
    `server          batch_rows ${r.settings.ingest.batch_rows}, flush ${r.settings.ingest.flush_interval_ms} ms, queue ${r.settings.ingest.queue_rows} rows` +
      (Object.keys(r.settings.serverEnv).length
        ? ` (overrides: ${JSON.stringify(r.settings.serverEnv)})`
        : ' (defaults)'),
    '',
    `end to end      ${k(e2e)} spans/s (ack after commit)   target >= ${k(TARGET_SPANS_PER_SEC)}: ${e2e >= TARGET_SPANS_PER_SEC ? 'MET' : 'NOT MET'}`,
    `                ${(load.requests / seconds).toFixed(1)} requests/s; per second min ${k(Math.min(...steady))} / max ${k(Math.max(...steady))} spans`,
    `                429: ${load.throttled}; errors: ${load.errors}${load.errorSamples.length ? ` (${load.errorSamples[0]})` : ''}`,
    `latency         p50 ${ms(percentile(lat, 50))}, p90 ${ms(percentile(lat, 90))}, p99 ${ms(percentile(lat, 99))}, max ${ms(lat[lat.length - 1] ?? NaN)}`,
    `cpu             server ${r.cpu.serverCores.toFixed(2)} cores, load clients ${r.cpu.clientCores.toFixed(2)} cores (of ${r.machine.cpus})`,
    `server memory   peak RSS ${mb(r.serverMemory.hwmKb)} (VmHWM)`,
  ];
  const threads = r.cpu.threadsUsPerSpan ?? [];
  if (threads.length) {
    const total = threads.reduce((n, [, us]) => n + us, 0);
    lines.push(
      `server threads  CPU µs per acknowledged span, total ${total.toFixed(1)}: ` +
        threads.map(([name, us]) => `${name} ${us.toFixed(1)}`).join(', '),
    );
  }
  const roles = r.cpu.rolesUsPerSpan;
  if (roles) {
    const f = (n: number) => n.toFixed(1);
    lines.push(
      `server by role  CPU µs per acknowledged span, process ${f(roles.process)}: workers ${f(roles.workers)}, ` +
        `main ${f(roles.main)}, engine ${f(roles.engine)}, other node threads ${f(roles.otherNode)}, ended threads ${f(roles.ended)}`,
    );
  }
  if (stages) {
    const ratio = e2e / stages.raw.spansPerSec;
    lines.push(
      '',
      `raw chDB        ${k(stages.raw.spansPerSec)} spans/s = ${k(stages.raw.rowsPerSec)} rows/s (insertStagedSpans of pre-encoded rows, ` +
        `${stages.raw.batches} batches of ${r.settings.ingest.batch_rows} rows)`,
      `ratio           end to end / raw = ${ratio.toFixed(2)}`,
      `stages alone    decode ${k(stages.decodeSpansPerSec)} spans/s, normalise ${k(stages.normalizeSpansPerSec)} spans/s, ` +
        `decode+normalise ${k(stages.decodeNormalizeSpansPerSec)} spans/s, row encoding ${k(stages.encodeRowsPerSec)} rows/s (one core each)`,
      `                ${(stages.rows / stages.spans).toFixed(3)} rows per span (span events become rows)`,
    );
    if (stages.stored) {
      const acked = load.spans;
      lines.push(
        `stored check    ${stages.stored.spans.toLocaleString('en')} spans stored by the server, ${acked.toLocaleString('en')} acknowledged in the window ` +
          `(${stages.stored.spans >= acked ? 'ok' : 'MISSING ROWS'}; warm-up and tail requests are stored but not counted)`,
      );
    }
  }
  if (r.profile) {
    lines.push('', `server profile  ${r.profile.file} (main thread, ${r.profile.totalMs} ms sampled)`);
    for (const f of r.profile.inclusive.slice(0, 12)) lines.push(`  ${String(f.pct).padStart(5)}% incl  ${f.name}`);
    lines.push('  -- self time:');
    for (const f of r.profile.byFunction.slice(0, 12)) lines.push(`  ${String(f.pct).padStart(5)}% self  ${f.name}`);
  }
  return lines.join('\n');
}
