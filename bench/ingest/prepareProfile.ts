import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session, type Profiler } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { prepare } from '../../packages/server/src/ingest/prepare';
import { DEFAULT_METRICS_FROM_SPANS } from '../../packages/server/src/metricsFromSpans';
import { buildRequestPool } from './requestPool';

/**
 * Where a prepare worker's CPU goes per span: the whole `prepare()` of the ingest bench's requests
 * (decode, normalise, storable, encode, staging files, metrics from spans), run in a loop on this
 * thread under V8's sampling profiler, and the samples summed by stage (each sample counts for the
 * first stage found on its stack, in the order below). Run with the prepare workers' young
 * generation (64 MB semi-spaces, preparePool.ts):
 *
 *   node --max-semi-space-size=64 --import tsx bench/ingest/prepareProfile.ts [--seconds 15] [--out file.cpuprofile]
 *
 * The profile itself (`--out`) names tsx's transformed modules without line numbers; bundling this
 * file with esbuild first (`esbuild bench/ingest/prepareProfile.ts --bundle --platform=node
 * --format=esm --packages=external`, with a `require` banner) gives them.
 */
const { values: args } = parseArgs({
  options: { seconds: { type: 'string', default: '15' }, out: { type: 'string' } },
});

/** Stages by the function names that mark them on a sample's stack. */
const STAGES: [string, string[]][] = [
  ['decode', ['decodeTracesProto']],
  ['normalise', ['normalizeTraces']],
  ['storable', ['storable']],
  ["encode: the lines' Buffer#write", ['write']],
  ['encode: attributes', ['encodeAttrs']],
  ['encode: the rest', ['encodeSpans']],
  ['metrics from spans', ['spanMetricPoints']],
  ['staging files', ['stageSpans']],
  ['GC', ['(garbage collector)']],
];

/** Samples in prepare() under none of the stages: code V8 inlined into prepare() itself (a stage's, then). */
const OTHER = 'prepare() itself (inlined stages)';

function byStage(profile: Profiler.Profile, spans: number): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const us = new Map<string, number>([...STAGES.map(([name]) => [name, 0] as [string, number]), [OTHER, 0]]);
  const samples = profile.samples ?? [];
  for (let i = 0; i < samples.length; i++) {
    const names = new Set<string>();
    for (let id: number | undefined = samples[i]; id !== undefined; id = parent.get(id))
      names.add(byId.get(id)!.callFrame.functionName);
    if (!names.has('prepare') && !names.has('(garbage collector)')) continue;
    const stage = STAGES.find(([, marks]) => marks.some((m) => names.has(m)))?.[0] ?? OTHER;
    us.set(stage, us.get(stage)! + (profile.timeDeltas?.[i] ?? 0));
  }
  return [...us].map(([name, t]) => [name, t / spans]);
}

async function main(): Promise<void> {
  const { bodies, spansPerRequest } = buildRequestPool({ requests: 32, spansPerRequest: 1000, seed: 1 });
  const project = { projectId: 1, groupByEnv: false, groupFuncsByService: false };
  const stagingDir = mkdtempSync(join(tmpdir(), 'lantern-prepare-profile-'));
  const run = (body: Buffer) =>
    prepare({
      kind: 'otlp_traces',
      format: 'protobuf',
      body,
      project,
      nowNs: String(BigInt(Date.now()) * 1_000_000n),
      maxRows: 1e9,
      stagingDir,
      spanMetrics: DEFAULT_METRICS_FROM_SPANS,
    });
  // The store removes a batch's files after its insert: here after each pass, not counted.
  let cpuUs = 0;
  const pass = () => {
    const c = process.cpuUsage();
    for (const body of bodies) run(body);
    const used = process.cpuUsage(c);
    cpuUs += used.user + used.system;
    rmSync(stagingDir, { recursive: true, force: true });
    mkdirSync(stagingDir);
  };
  pass(); // warm-up
  cpuUs = 0;
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params?: object) =>
    new Promise<T>((resolve, reject) =>
      session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res as T))),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  const t0 = performance.now();
  let requests = 0;
  while (performance.now() - t0 < Number(args.seconds) * 1000) {
    pass();
    requests += bodies.length;
  }
  const { profile } = await post<{ profile: Profiler.Profile }>('Profiler.stop');
  rmSync(stagingDir, { recursive: true, force: true });
  const spans = requests * spansPerRequest;
  if (args.out) writeFileSync(args.out, JSON.stringify(profile));
  console.log(`prepare(): ${(cpuUs / spans).toFixed(2)} CPU µs per span (${requests} requests, profiled)`);
  for (const [name, us] of byStage(profile, spans)) console.log(`${name.padEnd(32)} ${us.toFixed(2)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
