import { ErrorBody, withQuery, type QueryInput } from '@lantern/shared';
import type { z } from 'zod';

/**
 * The one way the web app talks to the server: JSON over fetch with the session cookie, every
 * answer parsed with its contract schema from @lantern/shared so that drift between server and UI
 * fails loudly (a ContractError) instead of rendering half-filled screens.
 */

/** A non-2xx answer. `status` 0 means the request never got an answer (network down). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** The whole error body, for answers that carry more than code and message (invalid_query's query text). */
  readonly body: unknown;

  constructor(status: number, code: string, message: string, body?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

/** The server answered 2xx, but not with what the contract says. Never retried. */
export class ContractError extends Error {
  constructor(path: string, issues: string) {
    super(`The server's answer to ${path} does not match the API contract: ${issues}`);
    this.name = 'ContractError';
  }
}

type Query = QueryInput;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
}

export async function apiRequest<S extends z.ZodType>(
  schema: S,
  path: string,
  opts: RequestOptions = {},
): Promise<z.infer<S>> {
  const url = withQuery(path, opts.query);
  let res: Response;
  try {
    res = await fetch(url, {
      method: opts.method ?? 'GET',
      credentials: 'include',
      headers:
        opts.body === undefined
          ? { accept: 'application/json' }
          : { accept: 'application/json', 'content-type': 'application/json' },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'network_error', 'The server cannot be reached. Check that Lantern is running.');
  }
  const data: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const body = ErrorBody.safeParse(data);
    if (body.success) throw new ApiError(res.status, body.data.code, body.data.message, data);
    throw new ApiError(res.status, 'http_error', `${res.status} ${res.statusText || 'error'}`);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    console.error(`Contract drift on ${opts.method ?? 'GET'} ${path}`, parsed.error.issues, data);
    throw new ContractError(path, issues);
  }
  return parsed.data;
}

export function apiGet<S extends z.ZodType>(
  schema: S,
  path: string,
  query?: Query,
  signal?: AbortSignal,
): Promise<z.infer<S>> {
  return apiRequest(schema, path, { query, signal });
}

export function apiPost<S extends z.ZodType>(schema: S, path: string, body?: unknown): Promise<z.infer<S>> {
  return apiRequest(schema, path, { method: 'POST', body: body ?? {} });
}

export function isApiError(err: unknown, status?: number): err is ApiError {
  return err instanceof ApiError && (status === undefined || err.status === status);
}
