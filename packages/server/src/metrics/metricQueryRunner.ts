import type { MonitorMetric } from '@lantern/shared';
import { MetricQueryError, type MetricQueryRunner } from '../alerting';
import { AppError } from '../http/appError';
import { visible, type MetricsQueryService } from './metricsQuery.service';
import { fixedGrid } from './query/timeRange';

/**
 * The metrics query engine behind metric monitors (alerting's MetricQueryRunner seam): the same
 * parse, plan and SQL as the timeseries endpoint, over one-minute buckets of the monitor window.
 * Every metric must be in the catalogue ("metric <name> does not exist", reference alerting §2.1),
 * even one the query does not use; any other part error makes the query invalid.
 */
export function createMetricQueryRunner(query: MetricsQueryService): MetricQueryRunner {
  const evaluate = async (
    req: { projectId: number; metrics: MonitorMetric[]; query: string },
    from: Date,
    minutes: number,
  ) => {
    let result;
    try {
      result = await query.evaluate(
        req.projectId,
        {
          metrics: req.metrics.map((m) => m.name),
          aliases: req.metrics.map((m) => m.alias),
          query: req.query,
          grid: fixedGrid(from, 1, minutes),
        },
        'timeseries',
      );
    } catch (err) {
      if (err instanceof AppError && err.type === 'invalid_input')
        throw new MetricQueryError('invalid_query', err.message);
      throw err;
    }
    const unknown = result.metrics.find((m) => m.instrument === 'deleted');
    if (unknown) throw new MetricQueryError('unknown_metric', `metric ${unknown.name} does not exist`);
    const error = result.info.parts.find((p) => p.error)?.error;
    if (error) throw new MetricQueryError('invalid_query', error);
    return visible(result.columns);
  };
  return {
    async columns(req) {
      return (await evaluate(req, new Date(Math.floor(Date.now() / 60_000) * 60_000), 1)).map((c) => c.column.name);
    },
    async series(req) {
      const minutes = Math.max(1, Math.round((req.to.getTime() - req.from.getTime()) / 60_000));
      const column = (await evaluate(req, req.from, minutes)).find((c) => c.column.name === req.column);
      if (!column) throw new MetricQueryError('invalid_query', `the query has no column "${req.column}"`);
      return (column.set?.series ?? []).map((s) => ({
        attrs: s.attrs,
        values: s.values.map((v) => (Number.isFinite(v) ? v : null)),
      }));
    },
  };
}
