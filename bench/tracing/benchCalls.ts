/** The tracing benches' calls over HTTP: a signed-in GET of `/api/v1/tracing/1/<path>`, and percentiles of timings. */

/** GET `/api/v1/tracing/1/<path>` with the session; anything but a 200 throws with the answer's start. */
export const tracingCaller =
  (baseUrl: string, cookie: string) =>
  async (path: string, params: Record<string, string>): Promise<Record<string, unknown>> => {
    const res = await fetch(`${baseUrl}/api/v1/tracing/1/${path}?${new URLSearchParams(params)}`, {
      headers: { cookie },
    });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${path} ${res.status}: ${body.slice(0, 500)}`);
    return JSON.parse(body) as Record<string, unknown>;
  };

/** The p-th percentile of sorted timings. */
export function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
