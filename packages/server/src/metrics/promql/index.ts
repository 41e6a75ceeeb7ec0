// PromQL: the Prometheus HTTP query API over the stored metrics (Grafana, promtool). engine/ parses
// and evaluates PromQL and knows nothing of storage; promSource.ts is its view of one project's
// metrics (names, SQL, push-down); prometheusApi.ts and prometheus.routes.ts answer as Prometheus does.
export { createPrometheusApi } from './prometheusApi';
export { registerPrometheusRoutes } from './prometheus.routes';
