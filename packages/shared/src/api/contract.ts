import { z } from 'zod';

/**
 * One contract per HTTP route: the server registers the route from it (packages/server/src/http/
 * routes.ts), the web client calls it by it, and the OpenAPI document is generated from all of them.
 * A contract holds shapes and words only, never behaviour.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How a caller proves who it is: the session cookie, the project DSN (ingest), or not at all. */
export type RouteAuth = 'session' | 'dsn' | 'none';

/** `/a/:b/c/:d` -> `'b' | 'd'`. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The default params schema of a path: every `:name` is a string (the handler decides what it names). */
export type PathParamsSchema<P extends string> = z.ZodObject<{ [K in PathParamNames<P>]: z.ZodString }>;

/**
 * Error answers a route can give, by status: `{ 404: ['project_not_found'] }`. Every error body is
 * `{code, message}` (ErrorBody). `invalid_input` (400) is implied for routes with input, and
 * `unauthenticated` (401) for session routes.
 */
export type RouteErrors = Partial<Record<400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503, readonly string[]>>;

/** A request or answer body that is not JSON (protobuf, snappy, YAML, a redirect): described, not parsed. */
export interface RawContent {
  /** Media types, e.g. `['application/x-protobuf', 'application/json']`. */
  media: readonly string[];
  description: string;
}

export interface RouteContract<
  M extends HttpMethod = HttpMethod,
  P extends string = string,
  Params extends z.ZodType = z.ZodType,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Res extends z.ZodType = z.ZodType,
> {
  /** Unique, camelCase: the OpenAPI operationId and the web's query key root. */
  readonly id: string;
  readonly method: M;
  /** Fastify syntax: `/api/v1/projects/:projectId`. */
  readonly path: P;
  readonly params: Params;
  /** Query-string schema (after `name[]` is folded into `name`); undefined: the route reads none. */
  readonly query: Query;
  /** JSON body schema; undefined: no JSON body (see rawBody). */
  readonly body: Body;
  /** A body that is not parsed as JSON by the contract (protobuf, snappy): its media types. */
  readonly rawBody?: RawContent;
  /** The success answer (JSON). For a raw answer (rawResponse), what the JSON variant carries, if any. */
  readonly response: Res;
  /** The success answer is not (only) JSON: YAML, protobuf, or a redirect. */
  readonly rawResponse?: RawContent;
  /** Success status: 200 unless said (202 ingest, 204 no content, 302 redirect). */
  readonly status: number;
  readonly errors: RouteErrors;
  readonly summary: string;
  readonly description?: string;
  readonly auth: RouteAuth;
  readonly tags: readonly string[];
}

/** Any contract, for lists and generic code. */
export type AnyRouteContract = RouteContract<
  HttpMethod,
  string,
  z.ZodType,
  z.ZodType | undefined,
  z.ZodType | undefined,
  z.ZodType
>;

/** What a caller sends: `params` from the path, `query`, `body` (each present only when the contract has it). */
export type RouteParams<C extends AnyRouteContract> = z.input<C['params']>;
export type RouteQuery<C extends AnyRouteContract> = C['query'] extends z.ZodType ? z.input<C['query']> : undefined;
export type RouteBody<C extends AnyRouteContract> = C['body'] extends z.ZodType ? z.input<C['body']> : undefined;
/** The success answer as it travels (what the server must send, what the client parses). */
export type RouteResponse<C extends AnyRouteContract> = z.output<C['response']>;

interface RouteDefinition<
  M extends HttpMethod,
  P extends string,
  Params extends z.ZodType,
  Query extends z.ZodType | undefined,
  Body extends z.ZodType | undefined,
  Res extends z.ZodType,
> {
  id: string;
  method: M;
  path: P;
  params?: Params;
  query?: Query;
  body?: Body;
  rawBody?: RawContent;
  response: Res;
  rawResponse?: RawContent;
  status?: number;
  errors?: RouteErrors;
  summary: string;
  description?: string;
  /** Default `session`. */
  auth?: RouteAuth;
  tags: readonly string[];
}

/** The names of a path's `:params`, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
}

/** Declares one route. Params default to a string per `:name` in the path. */
export function route<
  M extends HttpMethod,
  P extends string,
  Res extends z.ZodType,
  Params extends z.ZodType = PathParamsSchema<P>,
  Query extends z.ZodType | undefined = undefined,
  Body extends z.ZodType | undefined = undefined,
>(def: RouteDefinition<M, P, Params, Query, Body, Res>): RouteContract<M, P, Params, Query, Body, Res> {
  const params =
    def.params ??
    (z.object(Object.fromEntries(pathParamNames(def.path).map((n) => [n, z.string()]))) as unknown as Params);
  return {
    id: def.id,
    method: def.method,
    path: def.path,
    params,
    query: def.query as Query,
    body: def.body as Body,
    ...(def.rawBody ? { rawBody: def.rawBody } : {}),
    response: def.response,
    ...(def.rawResponse ? { rawResponse: def.rawResponse } : {}),
    status: def.status ?? 200,
    errors: def.errors ?? {},
    summary: def.summary,
    ...(def.description ? { description: def.description } : {}),
    auth: def.auth ?? 'session',
    tags: def.tags,
  };
}

/** Same as `route`; the name the issue uses. */
export const defineRoute = route;

/** The URL path of a contract with its params filled in (each one URI-encoded). */
export function routePath<C extends AnyRouteContract>(contract: C, params: RouteParams<C>): string {
  const values = (params ?? {}) as Record<string, unknown>;
  return contract.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const v = values[name];
    if (v === undefined || v === null || v === '') throw new Error(`${contract.id}: path param "${name}" is missing`);
    return encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v));
  });
}

/** An answer with no content of its own (`{}`): deletes, logouts, pin toggles. */
export const EmptyResponse = z.object({});
export type EmptyResponse = z.infer<typeof EmptyResponse>;
