import { parseVariableParams, substitutePromqlVariables } from '@lantern/shared';

/**
 * The parameters of the Prometheus HTTP API as Prometheus reads them (web/api/v1/api.go): the query
 * string and a form-encoded body together, repeated names (`match[]`) as lists, times as RFC 3339
 * or Unix seconds with decimals, durations as seconds or `1h30m`. A bad one is a `bad_data` error
 * with Prometheus's wording.
 */
export class PromParamError extends Error {}

export class PromParams {
  constructor(private readonly values: URLSearchParams) {}

  /** The query string of `url` and the form `body` (a string), the body's values first. */
  static of(url: string, body: unknown): PromParams {
    const all = new URLSearchParams(typeof body === 'string' ? body : '');
    const q = url.indexOf('?');
    if (q >= 0) for (const [k, v] of new URLSearchParams(url.slice(q + 1))) all.append(k, v);
    return new PromParams(all);
  }

  get(name: string): string | undefined {
    return this.values.get(name) ?? undefined;
  }

  /**
   * `query` with the dashboard variables' values written in (issue 41): a PromQL panel sends its
   * picks as `var=name=value` (repeated; `name=$__all`), as the metrics routes take them; a plain
   * Prometheus client sends none and its query is read as written.
   */
  expr(): string {
    const query = this.get('query') ?? '';
    const vars = this.all('var');
    return vars.length ? substitutePromqlVariables(query, parseVariableParams(vars)) : query;
  }

  all(name: string): string[] {
    return this.values.getAll(name);
  }

  time(name: string, fallbackMs: number): number {
    const v = this.get(name);
    return v === undefined || v === '' ? fallbackMs : parseTimeParam(v, name);
  }

  duration(name: string): number | undefined {
    const v = this.get(name);
    return v === undefined || v === '' ? undefined : parseDurationParam(v, name);
  }

  /** A non-negative integer `limit` (0: none). */
  limit(): number {
    const v = this.get('limit');
    if (v === undefined || v === '') return 0;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0)
      throw new PromParamError(`invalid parameter "limit": cannot parse "${v}" to a valid limit`);
    return n;
  }
}

/** Prometheus's min and max times (what it uses when `start`/`end` are absent). */
export const MIN_TIME_MS = -9223372036854.775;
export const MAX_TIME_MS = 9223372036854.775;

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

export function parseTimeParam(v: string, name: string): number {
  if (/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(v)) {
    const s = Number(v);
    if (Number.isFinite(s)) return Math.round(s * 1000);
  }
  if (RFC3339.test(v)) {
    const ms = Date.parse(v);
    if (Number.isFinite(ms)) return ms;
  }
  // Prometheus's own spellings of its min and max times (client libraries send them).
  if (v === '-292273086-05-16T16:47:06Z') return MIN_TIME_MS;
  if (v === '292277025-08-17T07:12:55.807Z') return MAX_TIME_MS;
  throw new PromParamError(`invalid parameter "${name}": cannot parse "${v}" to a valid timestamp`);
}

const UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
  y: 31_536_000_000,
};

/** Seconds (`15`, `0.5`) or a Prometheus duration (`1h30m`, `5m`, `250ms`), in ms. */
export function parseDurationParam(v: string, name: string): number {
  const bad = () => new PromParamError(`invalid parameter "${name}": cannot parse "${v}" to a valid duration`);
  if (/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(v)) {
    const ms = Number(v) * 1000;
    if (!Number.isFinite(ms) || Math.abs(ms) > 9.2e15) throw bad();
    return Math.round(ms);
  }
  const re = /(\d+)(ms|s|m|h|d|w|y)/gy;
  let total = 0;
  let at = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(v)) !== null) {
    total += Number(m[1]) * UNITS[m[2]];
    at = re.lastIndex;
  }
  if (at !== v.length || v.length === 0) throw bad();
  return total;
}
