/**
 * The query string as both sides read it (reference query §0.1): a list is the key repeated
 * (`system=a&system=b`), and a trailing `[]` on a name is ignored (`system[]=a` == `system=a`).
 * The web client writes lists with `toSearchParams`; the server reads Fastify's parsed query
 * through `foldArrayParams` before its zod schema sees it.
 */

/** What a caller may put in a query string; undefined values are left out. */
export type QueryInput = Record<string, string | number | boolean | readonly (string | number)[] | null | undefined>;

/** Query values -> `URLSearchParams`, lists as the key repeated. `null` and `undefined` are left out. */
export function toSearchParams(query: QueryInput | undefined): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  return params;
}

/** `path?query`, or `path` when no value is set. */
export function withQuery(path: string, query: QueryInput | undefined): string {
  const qs = toSearchParams(query).toString();
  return qs ? `${path}?${qs}` : path;
}

/**
 * A parsed query string (Fastify's `req.query`: a repeated key is an array) with `name[]` folded
 * into `name` and repeats merged, in the order they came.
 */
export function foldArrayParams(query: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    const key = k.endsWith('[]') ? k.slice(0, -2) : k;
    const prev = out[key];
    out[key] =
      prev === undefined
        ? v
        : [...(Array.isArray(prev) ? (prev as unknown[]) : [prev]), ...(Array.isArray(v) ? (v as unknown[]) : [v])];
  }
  return out;
}
