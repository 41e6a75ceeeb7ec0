import {
  ErrorMonitorInput,
  MAX_MONITORS,
  MetricMonitorInput,
  MetricMonitorPreviewBody,
  MonitorListQuery,
  type MetricMonitorPreviewResponse,
  type Monitor,
  type MonitorListResponse,
  type MonitorType,
} from '@lantern/shared';
import { AppError } from '../http/appError';
import { dbId, parseInput } from '../http/parseInput';
import type { ChannelsStore } from './channels.store';
import { replaySeries } from './metricDryRun';
import { MetricQueryError, type MetricQueryRunner } from './metricQueryRunner';
import { toMonitor, type MonitorRow, type MonitorsStore } from './monitors.store';

/** Monitor rules: validation on save (spec §5, reference §2.1), project ownership, state changes. */
/** The dry run replays at most this much of a range (7 days of minutes per series). */
const PREVIEW_MAX_MS = 7 * 24 * 3600_000;

export function createMonitorsService(deps: {
  monitors: MonitorsStore;
  channels: ChannelsStore;
  runner: MetricQueryRunner | null;
  now: () => Date;
}) {
  const { monitors } = deps;

  async function own(projectId: number, rawId: string, type?: MonitorType): Promise<MonitorRow> {
    const id = dbId(rawId);
    const row = id === undefined ? undefined : await monitors.get(id);
    const notFound = () =>
      new AppError('not_found', 'monitor_not_found', `Monitor ${JSON.stringify(rawId)} not found.`);
    if (!row) throw notFound();
    // Another project's monitor is 403 whatever the route (reference §2.1, §5.6); the wrong type path is 404.
    if (row.project_id !== projectId) throw new AppError('forbidden', 'forbidden', 'access denied');
    if (type && row.type !== type) throw notFound();
    return row;
  }

  async function checkChannels(projectId: number, ids: number[]) {
    const existing = await deps.channels.existing(projectId, ids);
    const missing = ids.find((id) => !existing.has(id));
    if (missing !== undefined)
      throw new AppError('invalid_input', 'channel_not_found', `notification channel ${missing} does not exist`);
  }

  /** How often a metric monitor would have fired over (the last 7 days of) a range: the evaluator replayed. */
  async function preview(projectId: number, body: unknown): Promise<MetricMonitorPreviewResponse> {
    const input = parseInput(MetricMonitorPreviewBody, body);
    if (!deps.runner)
      throw new AppError('unavailable', 'no_engine', 'No metrics query engine is available to preview the monitor.');
    const to = new Date(Math.floor(Date.parse(input.time_lt) / 60_000) * 60_000);
    const from = new Date(
      Math.max(Math.floor(Date.parse(input.time_gte) / 60_000) * 60_000, to.getTime() - PREVIEW_MAX_MS),
    );
    if (!(from < to)) throw new AppError('invalid_input', 'invalid_range', 'time_gte must be before time_lt');
    let series;
    try {
      series = await deps.runner.series({
        projectId,
        metrics: input.params.metrics,
        query: input.params.query,
        column: input.params.column,
        from,
        to,
      });
    } catch (err) {
      if (err instanceof MetricQueryError) throw new AppError('invalid_input', err.kind, err.message);
      throw err;
    }
    const runs = series.map((s) => replaySeries(s.values, input.params, from.getTime()));
    const firsts = runs.flatMap((r) => (r.firstAt === null ? [] : [r.firstAt]));
    return {
      fired: runs.reduce((n, r) => n + r.fired, 0),
      firstAt: firsts.length ? new Date(Math.min(...firsts)).toISOString() : null,
      series: series.length,
      from: from.toISOString(),
      to: to.toISOString(),
    };
  }

  /** The query must yield exactly one column, the one saved (spec §5). Needs the metrics engine. */
  async function checkMetricQuery(projectId: number, input: MetricMonitorInput) {
    if (!deps.runner) return;
    let columns: string[];
    try {
      columns = await deps.runner.columns({ projectId, metrics: input.params.metrics, query: input.params.query });
    } catch (err) {
      if (err instanceof MetricQueryError) throw new AppError('invalid_input', err.kind, err.message);
      throw err;
    }
    if (columns.length === 0)
      throw new AppError('invalid_input', 'invalid_query', 'The query must return at least one column to monitor.');
    if (columns.length > 1)
      throw new AppError(
        'invalid_input',
        'invalid_query',
        `The query returns ${columns.length} columns, but only a single column is allowed.`,
      );
    if (columns[0] !== input.params.column)
      throw new AppError(
        'invalid_input',
        'invalid_query',
        `column "${input.params.column}" is not what the query returns ("${columns[0]}")`,
      );
  }

  async function validated(projectId: number, type: MonitorType, body: unknown) {
    const input = type === 'metric' ? parseInput(MetricMonitorInput, body) : parseInput(ErrorMonitorInput, body);
    await checkChannels(projectId, input.channelIds);
    if (type === 'metric') await checkMetricQuery(projectId, input as MetricMonitorInput);
    return input;
  }

  const show = async (row: MonitorRow): Promise<{ monitor: Monitor }> => {
    const counts = (await monitors.alertCounts([row.id])).get(row.id);
    return { monitor: toMonitor(row, { channelIds: await monitors.channelIds(row.id), counts }) };
  };

  return {
    preview,
    async list(projectId: number, rawQuery: unknown): Promise<MonitorListResponse> {
      const q = parseInput(MonitorListQuery, rawQuery);
      const { rows, count, states } = await monitors.list(projectId, q);
      const counts = await monitors.alertCounts(rows.map((r) => r.id));
      return { monitors: rows.map((r) => toMonitor(r, { channelIds: null, counts: counts.get(r.id) })), count, states };
    },
    show: async (projectId: number, id: string) => show(await own(projectId, id)),
    async create(projectId: number, type: MonitorType, body: unknown) {
      const input = await validated(projectId, type, body);
      const id = await monitors.create(projectId, type, input, deps.now());
      if (id === 'full')
        throw new AppError(
          'invalid_input',
          'too_many_monitors',
          `a project can't have more than ${MAX_MONITORS} monitors`,
        );
      return show((await monitors.get(id))!);
    },
    async update(projectId: number, id: string, type: MonitorType, body: unknown) {
      const row = await own(projectId, id, type);
      const input = await validated(projectId, type, body);
      await monitors.update(row.id, input, deps.now());
      return show((await monitors.get(row.id))!);
    },
    /** Pause / resume; resuming is also how a failed monitor is revived. */
    async setState(projectId: number, id: string, state: 'active' | 'paused') {
      const row = await own(projectId, id);
      await monitors.setState(row.id, state);
      return show((await monitors.get(row.id))!);
    },
    async remove(projectId: number, id: string) {
      const row = await own(projectId, id);
      await monitors.delete(row.id);
      return {};
    },
  };
}

export type MonitorsService = ReturnType<typeof createMonitorsService>;
