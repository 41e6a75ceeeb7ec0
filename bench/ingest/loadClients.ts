import { Agent, request } from 'node:http';

/**
 * Concurrent OTLP/HTTP protobuf clients over keep-alive connections, each sending pre-encoded
 * bodies one after another (a request is acknowledged only after its rows are committed, so
 * each client has exactly one request in flight, like an exporter with one export at a time).
 * A 429 is honoured as OTLP clients do: wait Retry-After, send the same body again.
 * Only acknowledgements that arrive inside the measured window count.
 */
export interface LoadOptions {
  baseUrl: string;
  dsn: string;
  bodies: readonly Buffer[];
  spansPerRequest: number;
  clients: number;
  warmupMs: number;
  durationMs: number;
  /** Per-request timeout. */
  timeoutMs?: number;
}

export interface LoadResult {
  windowMs: number;
  requests: number;
  spans: number;
  /** Spans of every acknowledged request, in the window or not (what the store must hold). */
  acknowledgedSpans: number;
  throttled: number;
  errors: number;
  errorSamples: string[];
  /** Request latencies (ms) of requests acknowledged in the window, ack after commit. */
  latenciesMs: number[];
  /** Spans acknowledged per second of the window, to show steadiness. */
  perSecond: number[];
}

interface Reply {
  status: number;
  retryAfterSec: number;
  body: string;
}

function post(agent: Agent, url: URL, dsn: string, body: Buffer, timeoutMs: number): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/x-protobuf', 'content-length': body.length, 'lantern-dsn': dsn },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          resolve({
            status,
            retryAfterSec: Number(res.headers['retry-after'] ?? 1) || 1,
            // The 200 body is a small protobuf; keep text only for failures.
            body: status === 200 ? '' : Buffer.concat(chunks).toString('utf8').slice(0, 300),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`request timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const url = new URL('/v1/traces', opts.baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: opts.clients });
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const t0 = performance.now();
  const windowStart = t0 + opts.warmupMs;
  const windowEnd = windowStart + opts.durationMs;
  const result: LoadResult = {
    windowMs: opts.durationMs,
    requests: 0,
    spans: 0,
    acknowledgedSpans: 0,
    throttled: 0,
    errors: 0,
    errorSamples: [],
    latenciesMs: [],
    perSecond: new Array(Math.ceil(opts.durationMs / 1000)).fill(0),
  };
  let next = 0;

  const client = async (offset: number) => {
    // Stagger the start so clients do not march in lock step.
    await sleep(offset * 15);
    let body: Buffer | null = null;
    while (performance.now() < windowEnd) {
      // A throttled body is kept and sent again, as an exporter retries its batch.
      body ??= opts.bodies[next++ % opts.bodies.length];
      const started = performance.now();
      let reply: Reply;
      try {
        reply = await post(agent, url, opts.dsn, body, timeoutMs);
      } catch (err) {
        reply = { status: 0, retryAfterSec: 1, body: (err as Error).message };
      }
      const done = performance.now();
      const inWindow = done >= windowStart && done <= windowEnd;
      if (reply.status === 200) {
        body = null;
        result.acknowledgedSpans += opts.spansPerRequest;
        if (inWindow) {
          result.requests++;
          result.spans += opts.spansPerRequest;
          result.latenciesMs.push(done - started);
          result.perSecond[Math.min(result.perSecond.length - 1, Math.floor((done - windowStart) / 1000))] +=
            opts.spansPerRequest;
        }
      } else if (reply.status === 429) {
        result.throttled++;
        await sleep(reply.retryAfterSec * 1000);
      } else {
        body = null;
        result.errors++;
        if (result.errorSamples.length < 5) result.errorSamples.push(`${reply.status}: ${reply.body}`);
        if (result.errors > 50) throw new Error(`too many failed requests:\n${result.errorSamples.join('\n')}`);
        await sleep(200);
      }
    }
  };

  try {
    await Promise.all(Array.from({ length: opts.clients }, (_, i) => client(i)));
  } finally {
    agent.destroy();
  }
  return result;
}
