import { parseMetricsQuery } from '@lantern/shared';
import { compile } from '../../storage/sql';
import { compileSeriesQuery } from './compileSeries';
import type { GoldenCase } from './goldenCases';
import { planQuery } from './plan';
import { fixedGrid, type TimeGrid } from './timeRange';

export function goldenGrid(c: GoldenCase): TimeGrid {
  return c.hours
    ? fixedGrid(new Date('2026-01-01T00:00:00Z'), 120, 84)
    : fixedGrid(new Date('2026-01-01T10:00:00Z'), 1, 60);
}

/** The rollup watermark of a case (GoldenCase.watermark), inside its grid. */
export function goldenWatermark(c: GoldenCase, grid: TimeGrid): Date | null {
  if (!c.watermark) return null;
  return new Date(grid.lt.getTime() - (c.hours ? 86_400_000 : 23 * 60_000));
}

export function goldenQueries(c: GoldenCase) {
  const plan = planQuery(parseMetricsQuery(c.query), c.metrics, c.mode ?? 'timeseries', c.search ?? '');
  const grid = goldenGrid(c);
  return {
    plan,
    sql: plan.queries.map((q) => compile(compileSeriesQuery(1, q, grid, goldenWatermark(c, grid)))),
  };
}

/** The golden text of one case: the query, any part errors, then each SQL text and its params. */
export function renderGolden(c: GoldenCase): string {
  const { plan, sql } = goldenQueries(c);
  const lines = [`## ${c.name}`, `-- query: ${c.query}`];
  for (const [part, error] of plan.partErrors) lines.push(`-- error in part ${part}: ${error}`);
  for (const s of sql) lines.push(s.text, `-- params: ${JSON.stringify(s.params)}`);
  return lines.join('\n');
}
