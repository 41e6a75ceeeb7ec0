import { ErrorBody } from '@lantern/shared';
import type { z } from 'zod';

/**
 * The transport under `api(contract, ...)` (api.ts): fetch with the session cookie, the server's
 * `{code, message}` errors as ApiError, and every answer parsed with its contract schema from
 * @lantern/shared so that drift between server and UI fails loudly (a ContractError) instead of
 * rendering half-filled screens.
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

/** A request body: JSON, or text of a media type (a YAML file). */
export type RequestBody = { json: unknown } | { text: string; type: string };

/**
 * Sends one request with the session cookie. A network failure becomes ApiError status 0; a non-2xx
 * answer an ApiError with the server's `{code, message}` (or `http_error` when the body is not one).
 */
export async function send(method: string, url: string, body?: RequestBody, signal?: AbortSignal): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      credentials: 'include',
      headers:
        body === undefined
          ? { accept: 'application/json' }
          : { accept: 'application/json', 'content-type': 'json' in body ? 'application/json' : body.type },
      body: body === undefined ? undefined : 'json' in body ? JSON.stringify(body.json) : body.text,
      signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'network_error', 'The server cannot be reached. Check that Lantern is running.');
  }
  if (!res.ok) {
    const data: unknown = await res.json().catch(() => undefined);
    const error = ErrorBody.safeParse(data);
    if (error.success) throw new ApiError(res.status, error.data.code, error.data.message, data);
    throw new ApiError(res.status, 'http_error', `${res.status} ${res.statusText || 'error'}`);
  }
  return res;
}

/** An answer parsed by its contract schema; drift is a ContractError (logged with the answer). */
export function parseAnswer<S extends z.ZodType>(schema: S, data: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    console.error(`Contract drift on ${what}`, parsed.error.issues, data);
    throw new ContractError(what, issues);
  }
  return parsed.data;
}

export function isApiError(err: unknown, status?: number): err is ApiError {
  return err instanceof ApiError && (status === undefined || err.status === status);
}
