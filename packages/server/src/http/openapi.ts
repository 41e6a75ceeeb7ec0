import { authRoutes, ErrorBody, Span, type AnyRouteContract } from '@lantern/shared';
import { z } from 'zod';

/**
 * The OpenAPI 3.1 document of the API, generated from the route contracts (zod 4's JSON Schema
 * output). It describes shapes only. Request and answer bodies are components
 * (`<operationId>Body`, `<operationId>Response`); query and path params are inline.
 */

type Json = Record<string, unknown>;

export interface OpenApiOptions {
  version: string;
  /** The session cookie's name, for the security scheme. */
  sessionCookie: string;
}

const DSN_HEADER = 'lantern-dsn';

/** What every status means when a contract names no code for it. */
const IMPLIED: Record<number, string> = {
  400: 'invalid_input',
  401: 'unauthenticated',
  500: 'internal',
  503: 'metadata_unavailable, telemetry_unavailable',
};

const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * JSON Schemas of many zod schemas as components: a registry keeps one definition per schema, and
 * what several share (or a recursive schema, the span tree) becomes a component of its own.
 */
function components(
  schemas: Map<z.ZodType, string>,
  io: 'input' | 'output',
  sharedPrefix: string,
): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of schemas) registry.add(schema, { id });
  const out = z.toJSONSchema(registry, {
    io,
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Json> };
  const shared = (out.schemas.__shared?.$defs ?? {}) as Record<string, Json>;
  delete out.schemas.__shared;
  const result: Record<string, Json> = {};
  for (const [id, schema] of Object.entries(out.schemas)) result[id] = schema;
  for (const [id, schema] of Object.entries(shared)) result[`${sharedPrefix}${id}`] = schema;
  // `#/components/schemas/__shared#/$defs/schema0` -> `#/components/schemas/<prefix>schema0`; no $id/$schema
  // inside a component (the document's dialect is 2020-12 already).
  const text = JSON.stringify(result, (key, value: unknown) =>
    key === '$id' || key === '$schema' ? undefined : value,
  );
  return JSON.parse(
    text.replace(
      /#\/components\/schemas\/__shared#\/\$defs\/([A-Za-z0-9_]+)/g,
      `#/components/schemas/${sharedPrefix}$1`,
    ),
  ) as Record<string, Json>;
}

/** One OpenAPI parameter per property of an object schema (path or query). */
function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): Json[] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
  const props = (json.properties ?? {}) as Record<string, Json>;
  const required = new Set((json.required ?? []) as string[]);
  const list: Json[] = Object.entries(props).map(([name, s]) => {
    const { description, ...rest } = s;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
  if (where === 'query' && json.additionalProperties && json.additionalProperties !== false)
    list.push({
      name: 'attrs',
      in: 'query',
      description: 'Further filters: `attrs[<attribute>]=<value>`, repeatable.',
      style: 'deepObject',
      explode: true,
      schema: { type: 'object', additionalProperties: { type: 'string' } },
    });
  return list;
}

function security(contract: AnyRouteContract): Json[] {
  if (contract.auth === 'session') return [{ session: [] }];
  if (contract.auth === 'dsn') return [{ dsnHeader: [] }, { dsnBearer: [] }, { dsnQuery: [] }];
  return [];
}

function errorResponses(contract: AnyRouteContract): Record<string, Json> {
  const byStatus = new Map<number, string[]>();
  for (const [status, codes] of Object.entries(contract.errors)) byStatus.set(Number(status), [...(codes ?? [])]);
  const add = (status: number, code: string) => byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  if (contract.query || contract.body || contract.rawBody) add(400, IMPLIED[400]);
  if (contract.auth === 'session') add(401, IMPLIED[401]);
  add(503, IMPLIED[503]);
  add(500, IMPLIED[500]);
  const out: Record<string, Json> = {};
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0]))
    out[String(status)] = {
      description: `\`code\`: ${[...new Set(codes)].join(', ')}`,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
    };
  return out;
}

export function buildOpenApi(contracts: readonly AnyRouteContract[], opts: OpenApiOptions): Json {
  const bodies = new Map<z.ZodType, string>();
  const answers = new Map<z.ZodType, string>([
    [ErrorBody, 'ErrorBody'],
    [Span, 'Span'],
  ]);
  for (const c of contracts) {
    if (c.body && !bodies.has(c.body)) bodies.set(c.body, `${c.id}Body`);
    if (!c.rawResponse || c.rawResponse.media.includes('application/json'))
      if (!answers.has(c.response)) answers.set(c.response, `${c.id}Response`);
  }
  const schemas = { ...components(bodies, 'input', 'In_'), ...components(answers, 'output', 'Out_') };

  const paths: Record<string, Record<string, Json>> = {};
  for (const c of contracts) {
    const content = (media: readonly string[], json: string | undefined) =>
      Object.fromEntries(
        media.map((m) => [
          m,
          { schema: m === 'application/json' && json ? { $ref: `#/components/schemas/${json}` } : { type: 'string' } },
        ]),
      );
    const requestBody = c.body
      ? {
          required: true,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${bodies.get(c.body)}` } } },
        }
      : c.rawBody
        ? { required: true, description: c.rawBody.description, content: content(c.rawBody.media, undefined) }
        : undefined;
    const answerName = answers.get(c.response);
    const success: Json = c.rawResponse
      ? {
          description: c.rawResponse.description,
          ...(c.rawResponse.media.length ? { content: content(c.rawResponse.media, answerName) } : {}),
        }
      : {
          description: c.summary,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${answerName}` } } },
        };
    const operation: Json = {
      operationId: c.id,
      summary: c.summary,
      ...(c.description ? { description: c.description } : {}),
      tags: [...c.tags],
      parameters: [...parameters(c.params, 'path'), ...parameters(c.query, 'query')],
      ...(requestBody ? { requestBody } : {}),
      responses: { [String(c.status)]: success, ...errorResponses(c) },
      security: security(c),
    };
    (paths[openApiPath(c.path)] ??= {})[c.method.toLowerCase()] = operation;
  }

  const tags = [...new Set(contracts.flatMap((c) => c.tags))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Lantern API',
      version: opts.version,
      description:
        'Every route of a Lantern server. The JSON API answers errors as `{code, message}`. Sign in with ' +
        `\`POST ${authRoutes.login.path}\` (the session cookie); ingest routes take the project DSN instead.`,
    },
    tags,
    paths,
    components: {
      schemas,
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: opts.sessionCookie, description: 'Set by sign-in.' },
        dsnHeader: { type: 'apiKey', in: 'header', name: DSN_HEADER, description: 'The project DSN.' },
        dsnBearer: { type: 'http', scheme: 'bearer', description: 'The project DSN as a bearer token.' },
        dsnQuery: { type: 'apiKey', in: 'query', name: 'dsn', description: 'The project DSN in the query string.' },
      },
    },
  };
}
