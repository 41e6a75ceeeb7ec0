/**
 * Builders for every in-app path, so pages link by name rather than by hand-written strings
 * (routes from spec platform §2.1 and tracing §2). The router in app/router.tsx mirrors these shapes.
 */
type Id = number | string;

export type PathQuery = Record<string, string | string[] | undefined>;

function withQuery(path: string, query?: PathQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export const paths = {
  home: () => '/',
  /** `next`: the page to return to after signing in; `sso_error`: a single sign-on failure code. */
  login: (query?: PathQuery) => withQuery('/login', query),
  projectCreate: () => '/help/projects',
  tracingHelp: (projectId: Id) => `/help/${projectId}`,
  metricsHelp: (projectId: Id) => `/metrics/${projectId}/help`,
  projectSettings: (projectId: Id) => `/projects/${projectId}`,
  overview: (projectId: Id, query?: PathQuery) => withQuery(`/overview/${projectId}`, query),
  overviewSystems: (projectId: Id, query?: PathQuery) => withQuery(`/overview/${projectId}/systems`, query),
  overviewSystem: (projectId: Id, system: string, query?: PathQuery) =>
    withQuery(`/overview/${projectId}/groups/${encodeURIComponent(system)}`, query),
  overviewAttr: (projectId: Id, attr: string, query?: PathQuery) =>
    withQuery(`/overview/${projectId}/attributes/${encodeURIComponent(attr)}`, query),
  overviewSlowest: (projectId: Id, query?: PathQuery) => withQuery(`/overview/${projectId}/slowest-groups`, query),
  overviewServiceGraph: (projectId: Id, query?: PathQuery) => withQuery(`/overview/${projectId}/service-graph`, query),
  /** SpanGroupList (Explore spans, Groups tab). */
  spanGroups: (projectId: Id, query?: PathQuery) => withQuery(`/spans/${projectId}`, query),
  /** SpanList (Explore spans, Spans tab). */
  spanItems: (projectId: Id, query?: PathQuery) => withQuery(`/spans/${projectId}/items`, query),
  /** SpanTimeseries (Explore spans, Timeseries tab). */
  spanTimeseries: (projectId: Id, query?: PathQuery) => withQuery(`/spans/${projectId}/timeseries`, query),
  /** MetricsDashList: the picker goes on to the last opened (or first) dashboard. */
  metrics: (projectId: Id) => `/metrics/${projectId}`,
  /** The dashboards page (issue 41): search `q`, `tag`. */
  dashboardList: (projectId: Id, query?: PathQuery) => withQuery(`/metrics/${projectId}/dashboards`, query),
  /** MetricsDashShow; `tab` is table | grid | yaml. */
  dashboard: (projectId: Id, dashId: Id, query?: PathQuery) => withQuery(`/metrics/${projectId}/${dashId}`, query),
  metricsExplore: (projectId: Id, query?: PathQuery) => withQuery(`/metrics/${projectId}/explore`, query),
  alerting: (projectId: Id) => `/alerting/${projectId}`,
  /** AlertList; `query` may carry q, attrs filters, sort. */
  alerts: (projectId: Id, query?: PathQuery) => withQuery(`/alerting/${projectId}/alerts`, query),
  alert: (projectId: Id, alertId: Id) => `/alerting/${projectId}/alerts/${alertId}`,
  monitors: (projectId: Id, query?: PathQuery) => withQuery(`/alerting/${projectId}/monitors`, query),
  /** MonitorMetricNew: prefilled from name, metric[], alias[], query, columns (JSON text). */
  monitorMetricNew: (projectId: Id, query?: PathQuery) =>
    withQuery(`/alerting/${projectId}/monitors/new-metric`, query),
  monitorMetric: (projectId: Id, monitorId: Id) => `/alerting/${projectId}/monitors/${monitorId}/metric`,
  monitorErrorNew: (projectId: Id) => `/alerting/${projectId}/monitors/new-error`,
  monitorError: (projectId: Id, monitorId: Id) => `/alerting/${projectId}/monitors/${monitorId}/error`,
  channels: (projectId: Id) => `/alerting/${projectId}/channels`,
  channel: (projectId: Id, type: 'slack' | 'webhook' | 'alertmanager', channelId: Id) =>
    `/alerting/${projectId}/channels/${type}/${channelId}`,
  emailNotifications: (projectId: Id) => `/alerting/${projectId}/email`,
  traceFind: (traceId: string) => `/traces/${traceId}`,
  trace: (projectId: Id, traceId: string) => `/traces/${projectId}/${traceId}`,
  span: (projectId: Id, traceId: string, spanId: string) => `/traces/${projectId}/${traceId}/${spanId}`,
};

/** The source repository; every documentation link points into it, so a fork changes one line. */
const REPO_URL = 'https://github.com/lantern-observability/lantern';

/** External links (footer, help, login). */
export const externalLinks = {
  docs: `${REPO_URL}/tree/main/docs`,
  configuration: `${REPO_URL}/blob/main/docs/configuration.md`,
  enterprise: `${REPO_URL}#support`,
  openTelemetry: 'https://opentelemetry.io/docs/',
  instrumentations: 'https://opentelemetry.io/ecosystem/registry/?component=instrumentation',
  chat: `${REPO_URL}/discussions`,
  github: REPO_URL,
};
