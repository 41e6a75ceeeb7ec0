import {
  routePath,
  withQuery,
  type AnyRouteContract,
  type PathParamNames,
  type QueryInput,
  type RouteBody,
  type RouteParams,
  type RouteQuery,
  type RouteResponse,
} from '@lantern/shared';
import type { QueryKey } from '@tanstack/react-query';
import { parseAnswer, send, type RequestBody } from './apiClient';

/**
 * The web app's one way to call the server: `api(contract, { params, query, body })` with a route
 * contract from @lantern/shared. The contract gives the method, the path (its `:params` filled in
 * from `params`), the query string (lists as the key repeated, the way the server folds them) and
 * the schema the answer is parsed with, so input and output are typed by the contract and drift
 * fails loudly (ContractError). Errors are ApiError with the server's `{code, message}`.
 *
 * TanStack Query keys come from the same contract and input (`queryKey`), so a hook and the
 * mutations that invalidate it cannot disagree on a hand-written key.
 */

/** Path params as callers hold them (the path's `:names`): ids may be numbers; they travel as text. */
type ParamValues<C extends AnyRouteContract> = { [K in PathParamNames<C['path']>]: string | number };

/** A part of the input: absent when the contract has none, optional when every field of it is. */
type Part<K extends string, T> = [T] extends [undefined]
  ? { [P in K]?: undefined }
  : object extends T
    ? { [P in K]?: T }
    : { [P in K]: T };

export type ApiInput<C extends AnyRouteContract> = ([PathParamNames<C['path']>] extends [never]
  ? { params?: undefined }
  : { params: ParamValues<C> }) &
  Part<'query', RouteQuery<C>> &
  Part<'body', RouteBody<C>> & {
    /** The raw body of a contract that takes one (`rawBody`: a YAML file), sent as its first media type. */
    text?: string;
  };

export interface ApiOptions {
  signal?: AbortSignal;
}

const SENDS_BODY = new Set(['POST', 'PUT', 'PATCH']);

/** The URL of a call: the contract's path with its params, and the query string. */
export function apiUrl<C extends AnyRouteContract>(contract: C, input: ApiInput<C>): string {
  const path = routePath(contract, (input.params ?? {}) as RouteParams<C>);
  return withQuery(path, input.query as QueryInput | undefined);
}

export async function api<C extends AnyRouteContract>(
  contract: C,
  input: ApiInput<C>,
  opts: ApiOptions = {},
): Promise<RouteResponse<C>> {
  const url = apiUrl(contract, input);
  let body: RequestBody | undefined;
  if (input.text !== undefined) body = { text: input.text, type: contract.rawBody?.media[0] ?? 'text/plain' };
  else if (input.body !== undefined) body = { json: input.body };
  // The server's JSON parser refuses an empty body sent as JSON; a body-less POST/PUT sends `{}`.
  else if (SENDS_BODY.has(contract.method)) body = { json: {} };
  const res = await send(contract.method, url, body, opts.signal);
  const what = `${contract.method} ${contract.path}`;
  if (contract.rawResponse?.media.some((m) => m.startsWith('text/')))
    return parseAnswer(contract.response, await res.text(), what) as RouteResponse<C>;
  const data: unknown = await res.json().catch(() => undefined);
  return parseAnswer(contract.response, data, what) as RouteResponse<C>;
}

/** A key's params: every value as text, so `projectId: 1` and `projectId: '1'` share a cache entry. */
function keyParams(params: Record<string, string | number> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(params ?? {}).map(([k, v]) => [k, String(v)]));
}

/** The domain of a contract in keys: its first tag (`tracing`, `metrics`, `dashboards`, `alerts`...). */
const domainOf = (contract: AnyRouteContract) => contract.tags[0] ?? 'api';

/**
 * The query key of a call: `[domain, params, contract id, query?, body?]`. With only `params` it is
 * the prefix of every call of that contract with those params (for invalidation); TanStack matches
 * object parts of a key partially, so `scopeKey` prefixes reach across contracts.
 */
export function queryKey<C extends AnyRouteContract>(contract: C, input: Partial<ApiInput<C>> = {}): QueryKey {
  const key: unknown[] = [domainOf(contract), keyParams(input.params), contract.id];
  if (input.query !== undefined) key.push(input.query);
  if (input.body !== undefined) key.push({ body: input.body });
  return key;
}

/**
 * The prefix of every query of a domain whose params include these: `scopeKey(tracingRoutes.tracingSpans,
 * { projectId })` reaches every tracing call of the project, `{ projectId, dashId }` every call about
 * one dashboard.
 */
export function scopeKey(contract: AnyRouteContract, params: Record<string, string | number> = {}): QueryKey {
  return [domainOf(contract), keyParams(params)];
}
