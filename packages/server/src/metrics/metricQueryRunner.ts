import { MetricQueryError, type MetricQueryRunner } from '../alerting';
import { AppError } from '../http/appError';
import type { MetricsQueryService } from './metricsQuery.service';
import { fixedGrid } from './query/timeRange';

/**
 * The metrics query engine behind metric monitors (alerting's MetricQueryRunner seam): the same
 * parse, plan and SQL as the timeseries endpoint, over one-minute buckets of the monitor window.
 */
export function createMetricQueryRunner(query: MetricsQueryService): MetricQueryRunner {
  const evaluate = async (req: { projectId: number; metrics: { name: string; alias: string }[]; query: string }, from: Date, minutes: number) => {
    let result;
    try {
      result = await query.evaluate(req.projectId, { metrics: req.metrics.map((m) => m.name), aliases: req.metrics.map((m) => m.alias), query: req.query, grid: fixedGrid(from, 1, minutes) }, 'timeseries');
    } catch (err) {
      if (err instanceof AppError && err.type === 'invalid_input') throw new MetricQueryError('invalid_query', err.message);
      throw err;
    }
    const error = result.info.parts.find((p) => p.error)?.error;
    if (error) throw new MetricQueryError(/^metric ".*" not found$/.test(error) ? 'unknown_metric' : 'invalid_query', error);
    return result.columns.filter((c) => !c.column.name.startsWith('_'));
  };
  return {
    async columns(req) {
      return (await evaluate(req, new Date(Math.floor(Date.now() / 60_000) * 60_000), 1)).map((c) => c.column.name);
    },
    async series(req) {
      const minutes = Math.max(1, Math.round((req.to.getTime() - req.from.getTime()) / 60_000));
      const column = (await evaluate(req, req.from, minutes)).find((c) => c.column.name === req.column);
      if (!column) throw new MetricQueryError('invalid_query', `the query has no column "${req.column}"`);
      return (column.set?.series ?? []).map((s) => ({ attrs: s.attrs, values: s.values.map((v) => (Number.isFinite(v) ? v : null)) }));
    },
  };
}
