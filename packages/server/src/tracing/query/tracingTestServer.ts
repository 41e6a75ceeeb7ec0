import { beforeAll, expect } from 'vitest';
import { PROJECT2_TOKEN } from '@lantern/testkit/harness';
import { useLantern } from '@lantern/testkit/useLantern';
import { sendTracingFixtures } from './tracingFixtures';

/** The Explore page's default query. */
export const DEFAULT_QUERY = 'group by .group_id | .count_per_min | .error_rate | {p50,p90,p99}(.duration)';

/**
 * For the tracing API integration tests: the real server (own process, temp data dir) with the
 * tracing fixtures sent over real OTLP, 20 minutes ago, and helpers that call the API signed in.
 * Registers its own beforeAll/afterAll; call it once at the top of a test file.
 */
export function tracingTestServer(env: Record<string, string> = {}) {
  const base = Math.floor((Date.now() - 20 * 60_000) / 60_000) * 60_000;
  const range = {
    time_gte: new Date(base - 30 * 60_000).toISOString(),
    time_lt: new Date(base + 30 * 60_000).toISOString(),
  };
  const server = useLantern({ env });
  let fx: Awaited<ReturnType<typeof sendTracingFixtures>>;
  beforeAll(async () => {
    fx = await sendTracingFixtures(
      {
        httpUrl: server.lantern.baseUrl,
        grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
        dsn1: server.dsn,
        dsn2: `http://${PROJECT2_TOKEN}@127.0.0.1:${server.lantern.httpPort}/2`,
      },
      base,
    );
  });

  return {
    /** The minute the fixtures were sent at; `range` is the hour around it. */
    base,
    range,
    baseUrl: () => server.lantern.baseUrl,
    /** OTLP endpoints and the DSN of project 1, to send more telemetry. */
    otlp: () => ({
      httpUrl: server.lantern.baseUrl,
      grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
      dsn: server.dsn,
    }),
    cookie: () => server.cookie,
    /** The server's output so far. */
    output: () => server.lantern.output(),
    fixtures: () => fx,
    /** GET /api/v1/tracing/{project}/{path} over `range` plus `params`. */
    get: async (path: string, params: Record<string, string | string[]> = {}, project = 1) => {
      const qs = new URLSearchParams();
      for (const [k, v] of Object.entries({ ...range, ...params })) for (const x of [v].flat()) qs.append(k, x);
      const res = await fetch(`${server.lantern.baseUrl}/api/v1/tracing/${project}/${path}?${qs}`, {
        headers: { cookie: server.cookie },
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read the body field by field and check it with expect()
      return { status: res.status, body: (await res.json()) as any };
    },
    send: async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.lantern.baseUrl}${path}`, {
        method,
        headers: { cookie: server.cookie, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
  };
}

/**
 * Waits until a window rollup job (windowRollupJob.ts, `label` as it logs: "span systems", "span
 * durations"; every second in the tests) has rolled the window of `base` up and then found nothing
 * more to do: every window in its lookback holds its minute rows' count, so the answers that follow
 * come from its rows (a run logs what it wrote at info, at debug when nothing: the server needs
 * `LANTERN_LOG_LEVEL: 'debug'`). `late`: first a run that rewrote windows reached by late spans.
 */
export const jobRolledUp = (output: () => string, base: number, label: string, late = false) =>
  expect
    .poll(
      () => {
        const lines = output().split('\n');
        const wrote = lines.findLastIndex((l) => {
          const m = /"to":"([^"]+)","late":(\d+).*: windows rolled up/.exec(l);
          return (
            !!m && l.includes(`${label}: windows rolled up`) && Date.parse(m[1]) > base && (!late || Number(m[2]) > 0)
          );
        });
        return wrote >= 0 && lines.slice(wrote).some((l) => l.includes(`${label}: nothing to roll up`));
      },
      { timeout: 20_000 },
    )
    .toBe(true);
