import { z } from 'zod';
import { route, type AnyRouteContract, type HttpMethod, type RouteAuth } from './contract';

/**
 * The Prometheus HTTP query API (issue 37), for Grafana's Prometheus data source, promtool and
 * anything else that speaks it. Answers are Prometheus's own JSON, errors included
 * (`{status: "error", errorType, error}`, 400 bad_data / 422 execution / 503 timeout, 401 without a
 * project), not Lantern's `{code, message}`.
 *
 * Two prefixes serve the same endpoints:
 * - `/api/prometheus/api/v1/...`: a project token as `Authorization: Bearer <token>` or as the
 *   password of Basic auth (what Grafana and promtool send); the data source URL is
 *   `http://<lantern>/api/prometheus`;
 * - `/api/prometheus/:projectId/api/v1/...`: the signed-in session (the web app).
 */
export const PROMETHEUS_PREFIX = '/api/prometheus';

const Labels = z.record(z.string(), z.string());
/** `[unix seconds, "value"]`. */
const PromValue = z.tuple([z.number(), z.string()]);
export const PromQueryData = z.discriminatedUnion('resultType', [
  z.object({
    resultType: z.literal('matrix'),
    result: z.array(z.object({ metric: Labels, values: z.array(PromValue) })),
  }),
  z.object({ resultType: z.literal('vector'), result: z.array(z.object({ metric: Labels, value: PromValue })) }),
  z.object({ resultType: z.literal('scalar'), result: PromValue }),
  z.object({ resultType: z.literal('string'), result: PromValue }),
]);
export type PromQueryData = z.infer<typeof PromQueryData>;

const success = <T extends z.ZodType>(data: T) =>
  z.object({ status: z.literal('success'), data, warnings: z.array(z.string()).optional() });

export const PromQueryResponse = success(PromQueryData);
export const PromLabelsResponse = success(z.array(z.string()));
export const PromSeriesResponse = success(z.array(Labels));
export const PromMetadataResponse = success(
  z.record(z.string(), z.array(z.object({ type: z.string(), help: z.string(), unit: z.string() }))),
);
export const PromBuildInfoResponse = success(
  z.object({
    version: z.string(),
    revision: z.string(),
    branch: z.string(),
    buildUser: z.string(),
    buildDate: z.string(),
    goVersion: z.string(),
  }),
);
export const PromRulesResponse = success(z.object({ groups: z.array(z.unknown()) }));
export const PromAlertsResponse = success(z.object({ alerts: z.array(z.unknown()) }));
export const PromExemplarsResponse = success(z.array(z.unknown()));
/** Every error of this API. */
export const PromErrorResponse = z.object({
  status: z.literal('error'),
  errorType: z.string(),
  error: z.string(),
});
export type PromErrorResponse = z.infer<typeof PromErrorResponse>;

// Input is read as Prometheus reads it (query string and form body together, `match[]` repeated):
// the schemas describe it; the server parses it (metrics/promql/promParams.ts).
const str = z.string().optional();
const strs = z.union([z.string(), z.array(z.string())]).optional();
const QueryParams = z.object({ query: str, time: str, timeout: str, limit: str });
const RangeParams = z.object({ query: str, start: str, end: str, step: str, timeout: str, limit: str });
const MatchParams = z.object({ match: strs, start: str, end: str, limit: str });
const MetadataParams = z.object({ metric: str, limit: str, limit_per_metric: str });

const FORM = { media: ['application/x-www-form-urlencoded'], description: 'The same parameters as the query string.' };
const JSON_ANSWER = { media: ['application/json'], description: "Prometheus's JSON answer." };

interface Endpoint {
  id: string;
  path: string;
  methods: readonly HttpMethod[];
  query?: z.ZodType;
  response: z.ZodType;
  summary: string;
}

const ENDPOINTS: readonly Endpoint[] = [
  {
    id: 'Query',
    path: '/query',
    methods: ['GET', 'POST'],
    query: QueryParams,
    response: PromQueryResponse,
    summary: 'PromQL instant query',
  },
  {
    id: 'QueryRange',
    path: '/query_range',
    methods: ['GET', 'POST'],
    query: RangeParams,
    response: PromQueryResponse,
    summary: 'PromQL range query',
  },
  {
    id: 'Labels',
    path: '/labels',
    methods: ['GET', 'POST'],
    query: MatchParams,
    response: PromLabelsResponse,
    summary: 'Label names',
  },
  {
    id: 'LabelValues',
    path: '/label/:name/values',
    methods: ['GET'],
    query: MatchParams,
    response: PromLabelsResponse,
    summary: 'Values of one label (`__name__`: metric names)',
  },
  {
    id: 'Series',
    path: '/series',
    methods: ['GET', 'POST'],
    query: MatchParams,
    response: PromSeriesResponse,
    summary: 'Series matching selectors',
  },
  {
    id: 'Metadata',
    path: '/metadata',
    methods: ['GET'],
    query: MetadataParams,
    response: PromMetadataResponse,
    summary: 'Type, help and unit per metric',
  },
  {
    id: 'BuildInfo',
    path: '/status/buildinfo',
    methods: ['GET'],
    response: PromBuildInfoResponse,
    summary: 'Build information',
  },
  {
    id: 'Rules',
    path: '/rules',
    methods: ['GET'],
    response: PromRulesResponse,
    summary: 'Recording and alerting rules (none)',
  },
  { id: 'Alerts', path: '/alerts', methods: ['GET'], response: PromAlertsResponse, summary: 'Firing alerts (none)' },
  {
    id: 'Exemplars',
    path: '/query_exemplars',
    methods: ['GET', 'POST'],
    query: MatchParams,
    response: PromExemplarsResponse,
    summary: 'Exemplars (none)',
  },
];

function contracts(variant: { idPrefix: string; pathPrefix: string; auth: RouteAuth; who: string }) {
  const out: Record<string, AnyRouteContract> = {};
  for (const e of ENDPOINTS) {
    for (const method of e.methods) {
      const id = `${variant.idPrefix}${e.id}${e.methods.length > 1 ? (method === 'GET' ? 'Get' : 'Post') : ''}`;
      out[id] = route({
        id,
        method,
        path: `${variant.pathPrefix}/api/v1${e.path}`,
        query: e.query,
        ...(method === 'POST' ? { rawBody: FORM } : {}),
        response: e.response,
        rawResponse: JSON_ANSWER,
        summary: `${e.summary} (Prometheus API, ${variant.who})`,
        description:
          "Answers in Prometheus's JSON; errors are `{status: 'error', errorType, error}` (400 bad_data, 422 execution, 503 timeout, 401 without credentials).",
        auth: variant.auth,
        tags: ['prometheus'],
      });
    }
  }
  return out;
}

/** The Prometheus API with a project token (Grafana, promtool). */
export const prometheusTokenRoutes = contracts({
  idPrefix: 'prom',
  pathPrefix: PROMETHEUS_PREFIX,
  auth: 'dsn',
  who: 'project token',
});
/** The same with the session, for the web app: the project is in the path. */
export const prometheusSessionRoutes = contracts({
  idPrefix: 'promSession',
  pathPrefix: `${PROMETHEUS_PREFIX}/:projectId`,
  auth: 'session',
  who: 'session',
});

/** The path of an endpoint for the web app: `/api/prometheus/<projectId>/api/v1/<endpoint>`. */
export const prometheusSessionPath = (projectId: number | string, endpoint: string): string =>
  `${PROMETHEUS_PREFIX}/${encodeURIComponent(String(projectId))}/api/v1/${endpoint.replace(/^\//, '')}`;
