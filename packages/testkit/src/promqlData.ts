import type { SampleSeries, Samples } from './promql';

/**
 * The data of the PromQL comparison tests: what a small service fleet exposes (request counters
 * by job, instance, method and status; a latency histogram; memory, queue depth and temperature
 * gauges; `up`; a build info), one sample a minute at 30 s past the minute for `minutes` minutes
 * before the current minute.
 *
 * Counters start at 0 and grow at a steady rate of their own (the rates differ from series to
 * series, so `topk` and sorting have no ties): with steady rates Prometheus's extrapolated `rate`
 * and Lantern's sum of whole-minute increases are the same number, so answers compare to a
 * rounding error. Gauges move up and down freely (their values at a step are the same samples in
 * both). What differs by design (windows below two samples, extrapolation of uneven counters) is
 * in docs/prometheus.md, not in these data.
 */
export function fleetSamples(minutes: number, now = Date.now()): Samples {
  const series: SampleSeries[] = [];
  const jobs = ['api', 'web'];
  const instances = ['a:9100', 'b:9100'];
  let i = 0;
  for (const job of jobs)
    for (const instance of instances) {
      const n = i++;
      for (const method of ['GET', 'POST'])
        for (const status of ['200', '500']) {
          const perMinute = 6 * (1 + series.length) + (status === '500' ? 0.5 : 30);
          series.push({
            labels: { __name__: 'demo_requests_total', job, instance, method, status },
            values: (k) => k * perMinute,
          });
        }
      // Latency: per minute, observations per bucket grow with the instance.
      const les = ['0.05', '0.1', '0.25', '0.5', '1', '+Inf'];
      const perBucket = [3, 5, 8, 4, 2, 1].map((c) => c * (n + 1));
      let cum = 0;
      les.forEach((le, b) => {
        cum += perBucket[b];
        const c = cum;
        series.push({ labels: { __name__: 'demo_latency_seconds_bucket', job, instance, le }, values: (k) => k * c });
      });
      const total = cum;
      series.push({ labels: { __name__: 'demo_latency_seconds_count', job, instance }, values: (k) => k * total });
      series.push({
        labels: { __name__: 'demo_latency_seconds_sum', job, instance },
        values: (k) => k * total * 0.2 * (n + 1),
      });
      series.push({
        labels: { __name__: 'demo_memory_bytes', job, instance },
        values: (k) => 1_000_000 * (n + 1) + 1000 * ((k * 7 + n * 13) % 23),
      });
      series.push({
        labels: { __name__: 'demo_queue_depth', job, instance },
        values: (k) => ((k * 3 + n * 5) % 11) - 2,
      });
      series.push({
        labels: { __name__: 'demo_up', job, instance },
        // One instance is down for a while.
        values: (k) => (n === 3 && k >= 60 && k < 90 ? 0 : 1),
      });
      series.push({
        labels: { __name__: 'demo_build_info', job, instance, version: n % 2 ? '1.2.0' : '1.3.1' },
        values: () => 1,
      });
    }
  for (const [r, room] of ['lab', 'office'].entries())
    series.push({
      labels: { __name__: 'demo_temperature_celsius', room },
      values: (k) => 20 + 0.5 * ((k + r * 4) % 9),
    });
  const startMs = Math.floor(now / 60_000) * 60_000 - minutes * 60_000;
  return { series, startMs, count: minutes, offsetMs: 30_000 };
}

/**
 * What dashboards ask most, each asked of both as a range query at a 60 s step over whole minutes.
 * Left out on purpose (they differ by design, docs/prometheus.md): `rate` over windows of one
 * sample, `delta`, `predict_linear` and `timestamp` (a minute stands at its end, not at its sample).
 */
export const COMPARED_QUERIES: readonly string[] = [
  'rate(demo_requests_total[5m])',
  'sum by (job) (rate(demo_requests_total[5m]))',
  'sum(rate(demo_requests_total[5m]))',
  'sum without (instance) (rate(demo_requests_total[5m]))',
  'sum(rate(demo_requests_total[5m])) by (job, status)',
  'irate(demo_requests_total[5m])',
  'increase(demo_requests_total[10m])',
  'sum by (job, status) (increase(demo_requests_total[15m]))',
  'avg(rate(demo_requests_total[2m]))',
  'rate(demo_requests_total{status=~"5.."}[5m])',
  'rate(demo_requests_total{status!~"2.."}[5m])',
  'rate(demo_requests_total{method!="GET", job="api"}[5m])',
  'sum by (job) (rate(demo_requests_total{status="500"}[5m])) / sum by (job) (rate(demo_requests_total[5m]))',
  'sum by (job) (demo_requests_total)',
  'demo_requests_total{job="api", method="GET", status="200"}',
  'max by (job) (demo_memory_bytes)',
  'min(demo_memory_bytes)',
  'avg by (instance) (demo_memory_bytes)',
  'count by (job) (demo_memory_bytes)',
  'stddev by (job) (demo_memory_bytes)',
  'quantile(0.5, demo_memory_bytes)',
  'count_values("depth", demo_queue_depth)',
  'topk(3, rate(demo_requests_total[5m]))',
  'bottomk(2, demo_memory_bytes)',
  'sort_desc(sum by (job) (rate(demo_requests_total[5m])))',
  'histogram_quantile(0.99, sum by (le) (rate(demo_latency_seconds_bucket[5m])))',
  'histogram_quantile(0.5, sum by (job, le) (rate(demo_latency_seconds_bucket[5m])))',
  'histogram_quantile(0.9, rate(demo_latency_seconds_bucket[10m]))',
  'increase(demo_latency_seconds_bucket{le="0.25"}[5m])',
  'rate(demo_latency_seconds_sum[5m]) / rate(demo_latency_seconds_count[5m])',
  'sum by (job) (rate(demo_latency_seconds_count[5m]))',
  'rate(demo_requests_total[5m]) * on(job, instance) group_left(version) demo_build_info',
  'sum by (job, instance) (rate(demo_requests_total[5m])) / ignoring(version) group_left demo_build_info',
  'demo_build_info * on(job, instance) group_right(version) sum by (job, instance) (rate(demo_requests_total[5m]))',
  'demo_memory_bytes > 2000000',
  'demo_memory_bytes > bool 2000000',
  'demo_queue_depth < 0',
  'demo_queue_depth == 3',
  'demo_up == 0',
  'sum(rate(demo_requests_total[5m])) by (job) > 1',
  'demo_up and on(job) demo_memory_bytes > 2000000',
  'demo_memory_bytes unless demo_queue_depth < 0',
  'demo_queue_depth or demo_temperature_celsius',
  'label_replace(demo_memory_bytes, "host", "$1", "instance", "(.*):.*")',
  'label_join(demo_memory_bytes, "ji", "-", "job", "instance")',
  'avg_over_time(demo_memory_bytes[5m])',
  'max_over_time(demo_queue_depth[10m])',
  'min_over_time(demo_queue_depth[10m])',
  'sum_over_time(demo_queue_depth[5m])',
  'count_over_time(demo_temperature_celsius[5m])',
  'quantile_over_time(0.9, demo_memory_bytes[15m])',
  'stddev_over_time(demo_temperature_celsius[10m])',
  'last_over_time(demo_temperature_celsius[5m])',
  'absent(demo_nonexistent_metric{job="x"})',
  'absent(demo_up{job="api"})',
  'idelta(demo_temperature_celsius[5m])',
  'deriv(demo_memory_bytes[10m])',
  'changes(demo_queue_depth[10m])',
  'resets(demo_queue_depth[10m])',
  'abs(demo_queue_depth)',
  'clamp_max(demo_memory_bytes, 2500000)',
  'clamp_min(demo_queue_depth, 0)',
  'round(demo_temperature_celsius)',
  'sum by (job) (demo_memory_bytes) / scalar(count(demo_up))',
  'time()',
  'vector(1)',
  'demo_memory_bytes offset 10m',
  'max_over_time(rate(demo_requests_total[5m])[15m:1m])',
  '{__name__=~"demo_(memory|queue).*", job="api"}',
  'day_of_week(vector(time()))',
];
