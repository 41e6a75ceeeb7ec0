/**
 * One error type for the whole server. Handlers throw; the HTTP error handler renders
 * `{code, message}` with the status from STATUS_BY_TYPE, and gRPC maps the same types to codes.
 */
export type AppErrorType =
  | 'invalid_input'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'too_large'
  | 'rate_limited'
  | 'unavailable'
  | 'internal';

export const STATUS_BY_TYPE: Record<AppErrorType, number> = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  too_large: 413,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
};

export class AppError extends Error {
  /** Fields of the error body beside code and message (e.g. the generated `query` of `invalid_query`). */
  details?: Record<string, unknown>;

  constructor(
    readonly type: AppErrorType,
    /** snake_case code owned by the module that throws, e.g. `invalid_credentials`. */
    readonly code: string,
    message: string,
    /** Seconds a client should wait before retrying (rate_limited / unavailable). */
    readonly retryAfterSec?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return STATUS_BY_TYPE[this.type];
  }
}

export const invalidInput = (code: string, message: string) => new AppError('invalid_input', code, message);
export const notFound = (message: string) => new AppError('not_found', 'not_found', message);
