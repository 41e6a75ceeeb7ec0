/**
 * Builders for every in-app path, so pages link by name rather than by hand-written strings
 * (routes from spec platform §2.1 and tracing §2). The router in app/router.tsx mirrors these shapes.
 */
type Id = number | string;

function withQuery(path: string, query?: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(key, value);
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export const paths = {
  home: () => '/',
  login: () => '/login',
  projectCreate: () => '/help/projects',
  tracingHelp: (projectId: Id) => `/help/${projectId}`,
  metricsHelp: (projectId: Id) => `/metrics/${projectId}/help`,
  projectSettings: (projectId: Id) => `/projects/${projectId}`,
  overview: (projectId: Id) => `/overview/${projectId}`,
  spanGroups: (projectId: Id, query?: { system?: string; query?: string }) => withQuery(`/spans/${projectId}`, query),
  metrics: (projectId: Id) => `/metrics/${projectId}`,
  alerting: (projectId: Id) => `/alerting/${projectId}`,
  traceFind: (traceId: string) => `/traces/${traceId}`,
  trace: (projectId: Id, traceId: string) => `/traces/${projectId}/${traceId}`,
  span: (projectId: Id, traceId: string, spanId: string) => `/traces/${projectId}/${traceId}/${spanId}`,
};

/** The source repository; every documentation link points into it, so a fork changes one line. */
const REPO_URL = 'https://github.com/lantern-observability/lantern';

/** External links (footer, help, login). */
export const externalLinks = {
  docs: `${REPO_URL}/tree/main/docs`,
  createUser: `${REPO_URL}/blob/main/docs/configuration.md`,
  configuration: `${REPO_URL}/blob/main/docs/configuration.md`,
  enterprise: `${REPO_URL}#support`,
  openTelemetry: 'https://opentelemetry.io/docs/',
  instrumentations: 'https://opentelemetry.io/ecosystem/registry/?component=instrumentation',
  chat: `${REPO_URL}/discussions`,
  github: REPO_URL,
};
