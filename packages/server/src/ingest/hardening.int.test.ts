import { gzipSync } from 'node:zlib';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestStatsResponse } from '@lantern/shared';
import {
  PROJECT1_TOKEN,
  PROJECT2_TOKEN,
  removeDataDir,
  signIn,
  startLantern,
  type RunningLantern,
} from '@lantern/testkit/harness';
import { readStoredRows, type StoredRow } from './storedRows';

/**
 * Limits and isolation on every path: gzip bombs (HTTP and gRPC) refused without inflating them,
 * the per-request row cap, deeply nested JSON, tokens that only ever write into their own project,
 * and the self-telemetry (stats route behind the session, the periodic log line).
 */
let lantern: RunningLantern;
let cookie: string;
const MAX_ROWS = 50;

beforeAll(async () => {
  lantern = await startLantern({
    env: {
      LANTERN_INGEST_MAX_ROWS_PER_REQUEST: String(MAX_ROWS),
      LANTERN_INGEST_STATS_LOG_INTERVAL_MS: '1000',
      LANTERN_LOG_LEVEL: 'info',
    },
  });
  cookie = await signIn(lantern.baseUrl);
});
afterAll(async () => {
  await lantern?.stop();
  if (lantern) removeDataDir(lantern.dataDir);
});

const nowNs = () => String(BigInt(Date.now()) * 1_000_000n);
const logsJson = (service: string, messages: string[]) =>
  JSON.stringify({
    resourceLogs: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
        scopeLogs: [{ logRecords: messages.map((m) => ({ timeUnixNano: nowNs(), body: { stringValue: m } })) }],
      },
    ],
  });
const post = (path: string, body: Buffer | string, headers: Record<string, string>) =>
  fetch(`${lantern.baseUrl}${path}`, { method: 'POST', body, headers });

function grpcExport(
  path: string,
  message: Buffer,
  metadata: Record<string, string>,
): Promise<grpc.ServiceError | null> {
  const client = new grpc.Client(`127.0.0.1:${lantern.grpcPort}`, grpc.credentials.createInsecure(), {
    'grpc.default_compression_algorithm': grpc.compressionAlgorithms.gzip,
  });
  const md = new grpc.Metadata();
  for (const [k, v] of Object.entries(metadata)) md.set(k, v);
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      path,
      (b: Buffer) => b,
      (b: Buffer) => b,
      message,
      md,
      (err) => {
        client.close();
        resolve(err ?? null);
      },
    );
  });
}

describe('limits', () => {
  it('refuses a gzip bomb over HTTP with 413 without inflating it', async () => {
    // 512 MiB of zeros gzip to ~0.5 MiB; inflation stops at the 32 MiB body limit.
    const bomb = gzipSync(Buffer.alloc(512 * 1024 * 1024));
    const started = Date.now();
    const res = await post('/v1/logs', bomb, {
      'content-type': 'application/x-protobuf',
      'content-encoding': 'gzip',
      'lantern-dsn': PROJECT1_TOKEN,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'request_too_large' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses a gzip bomb over gRPC with RESOURCE_EXHAUSTED', async () => {
    const err = await grpcExport(
      '/opentelemetry.proto.collector.logs.v1.LogsService/Export',
      Buffer.alloc(64 * 1024 * 1024),
      { 'lantern-dsn': PROJECT1_TOKEN },
    );
    expect(err?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
  });

  it('refuses a request with more rows than the cap, whole', async () => {
    const many = Array.from({ length: MAX_ROWS + 1 }, (_, i) => `too many ${i}`);
    const res = await post('/v1/logs', logsJson('cap', many), {
      'content-type': 'application/json',
      'lantern-dsn': PROJECT1_TOKEN,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'too_many_rows' });
    expect(
      (
        await post('/v1/logs', logsJson('cap', ['within the cap']), {
          'content-type': 'application/json',
          'lantern-dsn': PROJECT1_TOKEN,
        })
      ).status,
    ).toBe(200);
  });

  it('refuses deeply nested JSON bodies and keeps a deeply nested message as text', async () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    for (const path of ['/v1/traces', '/v1/logs', '/api/v2/spans']) {
      const res = await post(path, deep, { 'content-type': 'application/json', 'lantern-dsn': PROJECT1_TOKEN });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'json_too_deep' });
    }
    const deepMessage = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    const res = await post('/v1/logs', logsJson('deep', [deepMessage]), {
      'content-type': 'application/json',
      'lantern-dsn': PROJECT1_TOKEN,
    });
    expect(res.status).toBe(200);
    // The too-deep record is dropped and counted, the other one stored.
    const deepLine = `{"message":"deep","service":"deep","x":${deepMessage}}\n`;
    const vector = await post('/api/v1/vector/logs', `{"message":"shallow","service":"deep"}\n${deepLine}`, {
      'content-type': 'application/x-ndjson',
      'lantern-dsn': PROJECT1_TOKEN,
    });
    expect(vector.status).toBe(200);
    expect(await vector.json()).toMatchObject({ partialSuccess: { rejectedLogRecords: '1' } });
    // Alone, nothing is stored: refused, so Vector does not count it delivered.
    const alone = await post('/api/v1/vector/logs', deepLine, {
      'content-type': 'application/x-ndjson',
      'lantern-dsn': PROJECT1_TOKEN,
    });
    expect(alone.status).toBe(400);
    expect(await alone.json()).toMatchObject({
      code: 'invalid_json',
      message: expect.stringContaining('nested deeper'),
    });
  });
});

describe('isolation and self-telemetry', () => {
  let stored: StoredRow[] = [];

  beforeAll(async () => {
    const zipkin = (service: string, traceHex: string) =>
      JSON.stringify([
        {
          traceId: traceHex.repeat(32),
          id: '1'.repeat(16),
          name: 'op',
          timestamp: Date.now() * 1000,
          localEndpoint: { serviceName: service },
        },
      ]);
    for (const [token, project] of [
      [PROJECT1_TOKEN, 'p1'],
      [PROJECT2_TOKEN, 'p2'],
      ['unknown_token_xyz', 'nobody'],
    ] as const) {
      const auth = { 'lantern-dsn': token };
      const expected = project === 'nobody' ? 401 : 200;
      expect(
        (await post('/v1/logs', logsJson(`iso-${project}`, ['a log']), { ...auth, 'content-type': 'application/json' }))
          .status,
      ).toBe(expected);
      expect(
        (
          await post('/api/v1/vector/logs', `{"message":"a vector line","service":"iso-${project}"}`, {
            ...auth,
            'content-type': 'application/x-ndjson',
          })
        ).status,
      ).toBe(expected);
      expect(
        (
          await post('/api/v2/spans', zipkin(`iso-${project}`, project === 'p1' ? '1' : project === 'p2' ? '2' : '3'), {
            ...auth,
            'content-type': 'application/json',
          })
        ).status,
      ).toBe(expected === 200 ? 202 : 401);
    }
    // A DSN naming project 2 with project 1's token is refused, not written anywhere.
    const mismatch = await post('/v1/logs', logsJson('iso-mismatch', ['x']), {
      'content-type': 'application/json',
      'uptrace-dsn': `http://${PROJECT1_TOKEN}@localhost:14318/2`,
    });
    expect(mismatch.status).toBe(401);
    const grpcRefused = await grpcExport('/opentelemetry.proto.collector.logs.v1.LogsService/Export', Buffer.alloc(0), {
      'lantern-dsn': 'unknown_token_xyz',
    });
    expect(grpcRefused?.code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('serves ingest counters behind the session', async () => {
    expect((await fetch(`${lantern.baseUrl}/api/v1/internal/stats`)).status).toBe(401);
    const res = await fetch(`${lantern.baseUrl}/api/v1/internal/stats`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const stats = IngestStatsResponse.parse(await res.json());
    // cap, deep (a log and a Vector line), and a log + a Vector line for each of the two projects
    expect(stats.signals.logs.acceptedRows).toBe(7);
    // Bombs, bad tokens, too-deep bodies, the DSN mismatch, the row cap.
    expect(stats.signals.logs.rejectedRequests).toBeGreaterThanOrEqual(6);
    expect(stats.signals.logs.rejectedRows).toBeGreaterThanOrEqual(MAX_ROWS + 2);
    expect(stats.signals.traces.acceptedRows).toBeGreaterThanOrEqual(2);
    expect(stats.queue.maxRows).toBeGreaterThan(0);
  });

  it('logs the counters periodically', async () => {
    await new Promise((r) => setTimeout(r, 1200));
    expect(lantern.output()).toContain('"msg":"ingest stats"');
  });

  it('stores rows only in the project of the token, and nothing for an unknown token', async () => {
    await lantern.stop();
    stored = await readStoredRows(lantern.dataDir);
    const projectsOf = (service: string) => [
      ...new Set(stored.filter((r) => r.service_name === service).map((r) => r.project_id)),
    ];
    expect(projectsOf('iso-p1')).toEqual([1]);
    expect(projectsOf('iso-p2')).toEqual([2]);
    expect(stored.filter((r) => r.service_name === 'iso-p1')).toHaveLength(3);
    expect(stored.filter((r) => r.service_name === 'iso-p2')).toHaveLength(3);
    expect(stored.filter((r) => r.service_name === 'iso-nobody' || r.service_name === 'iso-mismatch')).toEqual([]);
    expect(stored.filter((r) => r.service_name === 'cap').map((r) => r.log_message)).toEqual(['within the cap']);
    const deep = stored.find((r) => r.service_name === 'deep' && r.log_message !== 'shallow')!;
    expect(deep.log_message.startsWith('{"a":{"a":')).toBe(true);
  });
});
