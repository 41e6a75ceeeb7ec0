import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { SpanRow } from '../../packages/server/src/ingest/spanRow';
import type { Produced } from '../../packages/server/src/ingest/produced';
import type { EncodedSpans } from '../../packages/server/src/storage/telemetry/spanRowEncoding';
import { DEFAULT_METRICS_FROM_SPANS } from '../../packages/server/src/metricsFromSpans';
import { buildRequestPool } from './requestPool';

/**
 * The prepare stages of two checkouts side by side in one process, on the ingest bench's request
 * bodies: protobuf decode, normalisation, storable, TSV encoding, each timed in CPU microseconds
 * per span, the two versions taking turns request group by request group so that a machine that
 * gets busier or quieter weighs on both alike (measured on a machine shared with other benches),
 * which goes first alternating (the second of a turn pays a share of the first's garbage).
 * Run with the prepare workers' young generation (64 MB semi-spaces, preparePool.ts):
 *
 *   node --max-semi-space-size=64 --import tsx bench/ingest/stagesAb.ts --old <checkout> [--rounds 3]
 *
 * `<checkout>` is another version's tree (a git worktree); this checkout is "new". Then each
 * version's whole `prepare()` (what a prepare worker runs per request: the stages above, staging
 * the encoded rows as files in a temporary directory, and the fold of metrics from spans where
 * the version has it), in turns the same way.
 */
const { values: args } = parseArgs({
  options: {
    old: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    requests: { type: 'string', default: '32' },
  },
});
if (!args.old) throw new Error('--old <checkout> is required');

interface Stages {
  decode(body: Buffer): unknown;
  normalize(request: unknown, options: typeof PROJECT): SpanRow[];
  storable(p: Produced): Produced;
  encode(rows: readonly SpanRow[]): EncodedSpans;
  /** The worker's whole job for one request (ingest/prepare.ts); its task's extra fields are ignored by versions without them. */
  prepare(task: Record<string, unknown>): unknown;
}

const PROJECT = { projectId: 1, groupByEnv: false, groupFuncsByService: false };

async function stagesOf(root: string): Promise<Stages> {
  const src = resolve(root, 'packages/server/src');
  const otlp = (await import(`${src}/ingest/otlp/index.ts`)) as { decodeTracesProto: Stages['decode'] };
  const norm = (await import(`${src}/ingest/normalize/index.ts`)) as { normalizeTraces: Stages['normalize'] };
  const stor = (await import(`${src}/ingest/storableRows.ts`)) as { storable: Stages['storable'] };
  const enc = (await import(`${src}/storage/telemetry/spanRowEncoding.ts`)) as { encodeSpans: Stages['encode'] };
  const prep = (await import(`${src}/ingest/prepare.ts`)) as { prepare: Stages['prepare'] };
  return {
    prepare: prep.prepare,
    decode: otlp.decodeTracesProto,
    normalize: norm.normalizeTraces,
    storable: stor.storable,
    encode: enc.encodeSpans,
  };
}

/** The versions in turn, which goes first alternating by group (the second pays for the first's garbage). */
const inTurn = <T>(versions: T[], group: number): [T, number][] => {
  const order = versions.map((v, i) => [v, i] as [T, number]);
  return group % 2 ? order.reverse() : order;
};

const cpuUs = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};

async function main(): Promise<void> {
  const { bodies, spansPerRequest } = buildRequestPool({
    requests: Number(args.requests),
    spansPerRequest: 1000,
    seed: 1,
  });
  const versions: [string, Stages][] = [
    ['old', await stagesOf(args.old!)],
    ['new', await stagesOf(fileURLToPath(new URL('../..', import.meta.url)))],
  ];
  const rounds = Number(args.rounds);
  const totals = versions.map(() => ({ decode: 0, normalize: 0, storable: 0, encode: 0, spans: 0 }));
  // Round 0 warms both up and is not counted.
  for (let round = 0; round <= rounds; round++) {
    for (let i = 0; i < bodies.length; i += 4) {
      const group = bodies.slice(i, i + 4);
      for (const [[, s], v] of inTurn(versions, i / 4 + round)) {
        let t = cpuUs();
        const requests = group.map((b) => s.decode(b));
        const decode = cpuUs() - t;
        t = cpuUs();
        const rows = requests.map((r) => s.normalize(r, PROJECT));
        const normalize = cpuUs() - t;
        t = cpuUs();
        // As produceOtlpTraces hands protobuf rows over (versions without the flag ignore it).
        const kept = rows.map(
          (r) => s.storable({ rows: r, rejected: 0, rejectedMessage: '', attrsWellFormed: true }).rows,
        );
        const storable = cpuUs() - t;
        t = cpuUs();
        for (const r of kept) s.encode(r);
        const encode = cpuUs() - t;
        if (round === 0) continue;
        const a = totals[v];
        a.decode += decode;
        a.normalize += normalize;
        a.storable += storable;
        a.encode += encode;
        a.spans += group.length * spansPerRequest;
      }
    }
  }
  console.log(`prepare stages, CPU µs per span (${rounds} rounds of ${bodies.length} requests, turns per 4 requests)`);
  versions.forEach(([name], v) => {
    const a = totals[v];
    const f = (us: number) => (us / a.spans).toFixed(2);
    const total = a.decode + a.normalize + a.storable + a.encode;
    console.log(
      `${name.padEnd(4)} decode ${f(a.decode)}  normalise ${f(a.normalize)}  storable ${f(a.storable)}  encode ${f(a.encode)}  total ${f(total)}`,
    );
  });

  const stagingDir = mkdtempSync(join(tmpdir(), 'lantern-stages-ab-'));
  try {
    const whole = versions.map(() => ({ us: 0, spans: 0 }));
    for (let round = 0; round <= rounds; round++) {
      for (let i = 0; i < bodies.length; i += 4) {
        for (const [[, s], v] of inTurn(versions, i / 4 + round)) {
          const t = cpuUs();
          for (const body of bodies.slice(i, i + 4))
            s.prepare({
              kind: 'otlp_traces',
              format: 'protobuf',
              body,
              project: PROJECT,
              nowNs: String(BigInt(Date.now()) * 1_000_000n),
              maxRows: 1e9,
              stagingDir,
              spanMetrics: DEFAULT_METRICS_FROM_SPANS,
            });
          const used = cpuUs() - t;
          if (round > 0) {
            whole[v].us += used;
            whole[v].spans += Math.min(4, bodies.length - i) * spansPerRequest;
          }
        }
        // The staged files are the store's to remove after its insert: not timed.
        rmSync(stagingDir, { recursive: true, force: true });
        mkdirSync(stagingDir);
      }
    }
    console.log('whole prepare() per request (stages + staging files + metrics from spans), CPU µs per span');
    versions.forEach(([name], v) => console.log(`${name.padEnd(4)} ${(whole[v].us / whole[v].spans).toFixed(2)}`));
  } finally {
    rmSync(stagingDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
