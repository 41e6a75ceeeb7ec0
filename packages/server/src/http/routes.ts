import { foldArrayParams, type AnyRouteContract } from '@lantern/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { z } from 'zod';
import { AppError } from './appError';
import { parseInput } from './parseInput';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract the route was registered from (every route has one; see registerRoute). */
    contract?: AnyRouteContract;
  }
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * A request's input as its contract reads it. `params` are the path's strings. `query` and `body`
 * are parsed by the contract's schemas on first read (a 400 `{code, message}` naming each bad field,
 * from parseInput), so a handler's own checks that come first — the project in the path — answer
 * first, as they always have. `rawQuery` / `rawBody` are what arrived, for the few handlers whose
 * service parses the input itself (alerting) or whose body is not JSON (ingest, YAML).
 */
export interface RouteInput<C extends AnyRouteContract> {
  readonly params: z.output<C['params']>;
  readonly query: Parsed<C['query']>;
  readonly body: Parsed<C['body']>;
  /** The query string with `name[]` folded into `name` and repeats into lists. */
  readonly rawQuery: Record<string, unknown>;
  readonly rawBody: unknown;
}

/** What a JSON handler must answer: something its contract's response schema accepts. */
export type RouteAnswer<C extends AnyRouteContract> = z.input<C['response']>;

export type JsonHandler<C extends AnyRouteContract> = (
  input: RouteInput<C>,
  req: FastifyRequest,
  reply: FastifyReply,
) => Promise<RouteAnswer<C>>;

/** A handler that sends its own answer (protobuf, YAML, a redirect, a 204) through `reply`. */
export type RawHandler<C extends AnyRouteContract> = (
  input: RouteInput<C>,
  req: FastifyRequest,
  reply: FastifyReply,
) => Promise<FastifyReply | RouteAnswer<C>>;

export interface RouteOptions {
  /**
   * Let Fastify serialize the answer with a schema compiled from the response schema
   * (fast-json-stringify) instead of JSON.stringify. Only where it was measured faster
   * (docs/benchmarks.md); it drops properties the schema does not name.
   */
  serialize?: boolean;
}

function inputOf<C extends AnyRouteContract>(contract: C, req: FastifyRequest): RouteInput<C> {
  let query: { v: unknown } | undefined;
  let body: { v: unknown } | undefined;
  let rawQuery: Record<string, unknown> | undefined;
  const folded = () => (rawQuery ??= foldArrayParams(req.query));
  return {
    params: contract.params.parse(req.params ?? {}) as z.output<C['params']>,
    get rawQuery() {
      return folded();
    },
    get rawBody() {
      return req.body;
    },
    get query() {
      if (!contract.query) return undefined as Parsed<C['query']>;
      query ??= { v: parseInput(contract.query, folded()) };
      return query.v as Parsed<C['query']>;
    },
    get body() {
      if (!contract.body) return undefined as Parsed<C['body']>;
      // No body at all reads as `{}` (every field absent); a JSON `null` is a body, and not an object.
      body ??= { v: parseInput(contract.body, req.body === undefined ? {} : req.body) };
      return body.v as Parsed<C['body']>;
    },
  };
}

/** The JSON Schema of a contract's success answer, for Fastify's serializer. */
export function responseJsonSchema(contract: AnyRouteContract): Record<string, unknown> {
  return z.toJSONSchema(contract.response, { io: 'output', unrepresentable: 'any', target: 'draft-07' });
}

/**
 * Parses an answer as the client will see it (after JSON) by the contract's response schema; an
 * answer that breaks its contract is a 500 naming the fields. Only when the app checks answers.
 */
export function checkAnswer(contract: AnyRouteContract, answer: unknown): void {
  const wire: unknown = answer === undefined ? undefined : JSON.parse(JSON.stringify(answer));
  const r = contract.response.safeParse(wire);
  if (r.success) return;
  const issues = r.error.issues.map((i) => `${i.path.join('.') || '(answer)'}: ${i.message}`).join('; ');
  throw new AppError('internal', 'answer_breaks_contract', `${contract.id} answered outside its contract: ${issues}`);
}

const isReply = (v: unknown): v is FastifyReply =>
  typeof v === 'object' && v !== null && 'sent' in v && 'raw' in v && 'request' in v;

function register(
  app: FastifyInstance,
  contract: AnyRouteContract,
  handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  opts: RouteOptions,
): void {
  const schema: FastifySchema | undefined = opts.serialize
    ? { response: { [contract.status]: responseJsonSchema(contract) } }
    : undefined;
  app.route({
    method: contract.method,
    url: contract.path,
    config: { contract },
    ...(schema ? { schema } : {}),
    handler,
  });
}

/**
 * Registers a JSON route from its contract. The handler's answer is checked against the response
 * schema at compile time (RouteAnswer); at run time it is sent as is, with the contract's status.
 */
export function registerRoute<C extends AnyRouteContract>(
  app: FastifyInstance,
  contract: C,
  handler: NoInfer<JsonHandler<C>>,
  opts: RouteOptions = {},
): void {
  if (contract.rawResponse) throw new Error(`${contract.id}: a raw answer is registered with registerRawRoute`);
  register(
    app,
    contract,
    async (req, reply) => {
      const answer = await handler(inputOf(contract, req), req, reply);
      if (app.checkAnswers) checkAnswer(contract, answer);
      if (contract.status !== 200) reply.code(contract.status);
      return answer;
    },
    opts,
  );
}

/** Registers a route whose handler sends its own answer (a raw body or answer, a redirect). */
export function registerRawRoute<C extends AnyRouteContract>(
  app: FastifyInstance,
  contract: C,
  handler: NoInfer<RawHandler<C>>,
): void {
  if (!contract.rawResponse && !contract.rawBody)
    throw new Error(`${contract.id}: a JSON route is registered with registerRoute`);
  register(
    app,
    contract,
    async (req, reply) => {
      const answer = await handler(inputOf(contract, req), req, reply);
      // A raw route that answers JSON (a YAML upload's dashboard) is held to its contract too; one
      // that sent its answer itself (OTLP's protobuf or JSON, a redirect) returns nothing to check.
      if (app.checkAnswers && !isReply(answer) && answer !== undefined && !reply.sent) checkAnswer(contract, answer);
      return answer;
    },
    {},
  );
}
