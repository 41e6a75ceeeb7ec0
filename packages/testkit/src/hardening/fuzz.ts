import { gunzipSync } from 'node:zlib';
import * as grpc from '@grpc/grpc-js';
import { PROJECT1_TOKEN, startLantern, type RunningLantern } from '../harness';
import { BODY_ENCODINGS, contentEncodingOf, encodeBody } from '../compression';
import { buildRequest, REQUEST_KINDS, rng, type IngestRequest } from './traffic';

/**
 * Corpus-based fuzzing of every ingest endpoint: valid requests of each kind are mutated (bit
 * flips, byte overwrites/inserts/deletes, truncation, splices, JSON values swapped for hostile
 * ones such as deep nesting, huge numbers and long strings), sometimes compressed before or after
 * mutating, and sent over HTTP and gRPC. The server must never crash or hang, must answer every
 * HTTP request with 2xx or 4xx and a JSON error body for 4xx, and every gRPC call with OK or a
 * client-error status (never INTERNAL/UNKNOWN).
 */
export interface FuzzOptions {
  httpCases: number;
  grpcCases: number;
  seed: number;
  concurrency: number;
  /** Per-request time limit: longer counts as a hang. */
  timeoutMs: number;
}

export interface FuzzFailure {
  case: number;
  transport: 'http' | 'grpc';
  what: string;
  detail: string;
}

export interface FuzzResult {
  httpCases: number;
  grpcCases: number;
  statuses: Record<string, number>;
  grpcCodes: Record<string, number>;
  failures: FuzzFailure[];
  /** The server still took a valid request after the run. */
  aliveAfter: boolean;
  seconds: number;
}

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const int = (r: Rand, n: number) => Math.floor(r() * n);

function corpus(): IngestRequest[] {
  const out: IngestRequest[] = [];
  for (const kind of REQUEST_KINDS) {
    for (const size of [1, 3, 20]) {
      const traceId = (out.length + 1).toString(16).padStart(32, 'c');
      const req = buildRequest(kind, traceId, size, PROJECT1_TOKEN);
      // Keep the uncompressed form: compression is one of the mutations.
      if (req.headers['content-encoding'] === 'gzip') {
        const plain = kind === 'vector' ? Buffer.from(buildPlainVector(traceId, size)) : gunzipSync(req.body);
        const { 'content-encoding': _omit, ...headers } = req.headers;
        out.push({ ...req, headers, body: plain });
      } else out.push(req);
    }
  }
  return out;
}

function buildPlainVector(traceId: string, size: number): string {
  return Array.from({ length: size }, (_, i) =>
    JSON.stringify({
      message: `line ${i} user=${i}`,
      timestamp: new Date().toISOString(),
      level: pickLevel(i),
      trace_id: traceId,
      nested: { a: { b: i } },
    }),
  ).join('\n');
}
const pickLevel = (i: number) => ['info', 'warn', 'error', 'debug', 'critical', 'bogus'][i % 6];

const HOSTILE_VALUES: (() => unknown)[] = [
  () => null,
  () => -1,
  () => 1e308,
  () => '18446744073709551616',
  () => 'NaN',
  () => 'x'.repeat(100_000),
  () => '',
  () => true,
  () => [],
  () => ({}),
  () => JSON.parse('['.repeat(100) + ']'.repeat(100)),
  () => ({ stringValue: '{"msg":' + '{"a":'.repeat(200) + '1' + '}'.repeat(200) + '}' }),
  () => ({ kvlistValue: { values: [{ key: 'k', value: { kvlistValue: { values: [] } } }] } }),
  () => ({ arrayValue: { values: Array.from({ length: 2000 }, (_, i) => ({ intValue: i })) } }),
  () => '\u0000\uffff\ud800',
  () => '__proto__',
  () => ({ __proto__: { polluted: true } }),
];

function mutateJson(r: Rand, text: string): string {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return text;
  }
  // Collect container/key pairs, replace one value with a hostile one.
  const slots: [Record<string, unknown> | unknown[], string | number][] = [];
  const walk = (v: unknown, depth: number) => {
    if (depth > 12 || v === null || typeof v !== 'object') return;
    for (const k of Object.keys(v)) {
      slots.push([v as Record<string, unknown>, Array.isArray(v) ? Number(k) : k]);
      walk((v as Record<string, unknown>)[k], depth + 1);
    }
  };
  walk(root, 0);
  for (let n = 1 + int(r, 3); n > 0 && slots.length; n--) {
    const [container, key] = pick(r, slots);
    (container as Record<string | number, unknown>)[key] = pick(r, HOSTILE_VALUES)();
  }
  return JSON.stringify(root);
}

function mutateBytes(r: Rand, input: Buffer, other: Buffer): Buffer {
  let b = Buffer.from(input);
  const ops = 1 + int(r, 4);
  for (let i = 0; i < ops; i++) {
    const at = b.length ? int(r, b.length) : 0;
    switch (int(r, 8)) {
      case 0:
        if (b.length) b[at] ^= 1 << int(r, 8);
        break;
      case 1:
        if (b.length) b[at] = int(r, 256);
        break;
      case 2:
        b = Buffer.concat([
          b.subarray(0, at),
          Buffer.from(Array.from({ length: 1 + int(r, 16) }, () => int(r, 256))),
          b.subarray(at),
        ]);
        break;
      case 3:
        b = Buffer.concat([b.subarray(0, at), b.subarray(Math.min(b.length, at + 1 + int(r, 64)))]);
        break;
      case 4:
        b = b.subarray(0, at);
        break;
      case 5:
        b = Buffer.concat([b.subarray(0, at), other.subarray(int(r, Math.max(1, other.length)))]);
        break;
      case 6:
        if (b.length) b.fill(0xff, at, Math.min(b.length, at + 1 + int(r, 10)));
        break;
      case 7:
        b = Buffer.concat([b, b.subarray(at, Math.min(b.length, at + 256))]);
        break;
    }
  }
  return b;
}

interface Case {
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

async function makeCase(r: Rand, seeds: IngestRequest[]): Promise<Case> {
  const base = pick(r, seeds);
  const headers = { ...base.headers };
  let body = base.body;
  const isJson = headers['content-type'] !== 'application/x-protobuf';
  const roll = r();
  if (isJson && roll < 0.35) body = Buffer.from(mutateJson(r, body.toString('utf8')));
  else if (roll < 0.85) body = mutateBytes(r, body, pick(r, seeds).body);
  // else: sent valid (mixed with the mutated ones, so the server also stores under fire)
  // Compressed before mutating (the body inside is mutated) or after (the compressed bytes are),
  // in gzip mostly and every other encoding the ingest takes (BODY_ENCODINGS), or mislabelled.
  const enc = r();
  if (enc < 0.2) {
    body = await encodeBody('gzip', body);
    headers['content-encoding'] = 'gzip';
  } else if (enc < 0.3) {
    body = mutateBytes(r, await encodeBody('gzip', body), body);
    headers['content-encoding'] = 'gzip';
  } else if (enc < 0.4) {
    const codec = pick(r, BODY_ENCODINGS);
    body = await encodeBody(codec, body);
    if (r() < 0.5) body = mutateBytes(r, body, base.body);
    headers['content-encoding'] = contentEncodingOf(codec);
  } else if (enc < 0.42) {
    headers['content-encoding'] = pick(r, ['zstd', 'snappy', 'lz4', 'gzip', 'identity, gzip', 'compress']);
  }
  if (r() < 0.05)
    headers['content-type'] = pick(r, [
      'application/json',
      'application/x-protobuf',
      'text/plain',
      'application/x-ndjson; charset=utf-8',
      '',
    ]);
  if (r() < 0.03)
    headers['lantern-dsn'] = pick(r, ['', 'http://x@y/1', 'not a dsn', 'http://project1_secret_token@h/999']);
  return { path: base.path, headers, body };
}

const GRPC_OK = new Set([
  grpc.status.OK,
  grpc.status.INVALID_ARGUMENT,
  grpc.status.RESOURCE_EXHAUSTED,
  grpc.status.UNAUTHENTICATED,
]);

export async function runFuzz(opts: FuzzOptions): Promise<FuzzResult> {
  const started = Date.now();
  const r = rng(opts.seed);
  const seeds = corpus();
  const lantern: RunningLantern = await startLantern({ ingestWorkers: 'default' });
  const statuses: Record<string, number> = {};
  const grpcCodes: Record<string, number> = {};
  const failures: FuzzFailure[] = [];
  const fail = (c: number, transport: 'http' | 'grpc', what: string, detail: string) => {
    if (failures.length < 50) failures.push({ case: c, transport, what, detail: detail.slice(0, 300) });
  };

  const httpCases: Case[] = [];
  for (let i = 0; i < opts.httpCases; i++) httpCases.push(await makeCase(r, seeds));
  let next = 0;
  const httpWorker = async () => {
    while (next < httpCases.length) {
      const i = next++;
      const c = httpCases[i];
      try {
        const res = await fetch(`${lantern.baseUrl}${c.path}`, {
          method: 'POST',
          headers: c.headers,
          body: new Uint8Array(c.body),
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
        const text = await res.text();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status >= 500 || res.status < 200) fail(i, 'http', `status ${res.status}`, text);
        if (res.status >= 400) {
          try {
            const body = JSON.parse(text) as { code?: unknown; message?: unknown };
            if (typeof body.code !== 'string' || typeof body.message !== 'string')
              fail(i, 'http', 'error body without code/message', text);
          } catch {
            fail(i, 'http', 'error body is not JSON', text);
          }
        } else if ((res.headers.get('content-type') ?? '').includes('json')) {
          try {
            JSON.parse(text);
          } catch {
            fail(i, 'http', 'success body is not JSON', text);
          }
        }
      } catch (err) {
        statuses.error = (statuses.error ?? 0) + 1;
        fail(i, 'http', (err as Error).name === 'TimeoutError' ? 'hang' : 'no answer', String(err));
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, httpWorker));

  const protoSeeds = seeds.filter((s) => s.headers['content-type'] === 'application/x-protobuf');
  const client = new grpc.Client(`127.0.0.1:${lantern.grpcPort}`, grpc.credentials.createInsecure());
  const md = new grpc.Metadata();
  md.set('lantern-dsn', PROJECT1_TOKEN);
  let g = 0;
  const grpcWorker = async () => {
    while (g < opts.grpcCases) {
      const i = g++;
      const seed = pick(r, protoSeeds);
      const path =
        seed.path === '/v1/logs'
          ? '/opentelemetry.proto.collector.logs.v1.LogsService/Export'
          : '/opentelemetry.proto.collector.trace.v1.TraceService/Export';
      const body = r() < 0.85 ? mutateBytes(r, seed.body, pick(r, protoSeeds).body) : seed.body;
      const code = await new Promise<number>((resolve) => {
        client.makeUnaryRequest(
          path,
          (b: Buffer) => b,
          (b: Buffer) => b,
          body,
          md,
          { deadline: Date.now() + opts.timeoutMs },
          (err) => resolve(err ? err.code : grpc.status.OK),
        );
      });
      grpcCodes[grpc.status[code]] = (grpcCodes[grpc.status[code]] ?? 0) + 1;
      if (!GRPC_OK.has(code)) fail(i, 'grpc', `status ${grpc.status[code]}`, '');
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency, 8) }, grpcWorker));
  client.close();

  const check = buildRequest('traces-json', 'f'.repeat(32), 2, PROJECT1_TOKEN);
  const after = await fetch(`${lantern.baseUrl}${check.path}`, {
    method: 'POST',
    headers: check.headers,
    body: new Uint8Array(check.body),
  }).catch(() => null);
  const aliveAfter = after?.status === 200 && lantern.process.exitCode === null;
  await lantern.stop();
  return {
    httpCases: opts.httpCases,
    grpcCases: opts.grpcCases,
    statuses,
    grpcCodes,
    failures,
    aliveAfter,
    seconds: (Date.now() - started) / 1000,
  };
}
