import { ComingSoon } from '../../components/ComingSoon';

/** Placeholder until metrics dashboards and explore (spec tracing §2 Metrics) are delivered. */
export function MetricsPage() {
  return (
    <ComingSoon
      title="Metrics"
      summary="Metrics will chart the OpenTelemetry metrics this project sends."
      planned={[
        'Dashboards with charts, tables, heatmaps and gauges, editable as YAML',
        'Explore: every metric with its instrument, unit and attributes',
        'Queries with aggregations, grouping and filters per metric',
      ]}
    />
  );
}

export function MetricsHelpPage() {
  return (
    <ComingSoon
      title="Getting started with metrics"
      summary="This page will explain how to send OpenTelemetry metrics to this project."
      planned={['DSNs and SDK settings for metric exporters', 'An OpenTelemetry Collector configuration for host and Prometheus metrics']}
    />
  );
}
