import type { z } from 'zod';
import type {
  PromBuildInfoResponse,
  PromLabelsResponse,
  PromMetadataResponse,
  PromQueryResponse,
  PromSeriesResponse,
} from '@lantern/shared';
import { StoreQueryError, StoreUnavailableError, type TelemetryStore } from '../../storage/telemetry';
import {
  instantQuery,
  parsePromQL,
  PromQLError,
  rangeQuery,
  selectorsOf,
  SeriesLimitError,
  type LabelMatcher,
  type Labels,
  type QueryData,
} from './engine';
import { boundsOf, formatLe } from './promBuckets';
import { familyName, promType, unescapeLabelName, type PromName } from './promNames';
import { MAX_TIME_MS, MIN_TIME_MS, PromParamError, type PromParams } from './promParams';
import { cachedCatalogs, createPromSource, namesMatching } from './promSource';
import {
  bucketBounds,
  labelNames,
  labelValues,
  metricsWithData,
  nodeRegex,
  seriesList,
  type Selection,
} from './promSql';

/**
 * The Prometheus HTTP API's answers over one project's metrics (prometheus.routes.ts binds them).
 * Queries run on the PromQL engine (engine/) with this project's PromSource; the listing endpoints
 * read the series catalogue directly. Errors are PromApiErrors carrying Prometheus's errorType and
 * status.
 */
export class PromApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorType: string,
    message: string,
  ) {
    super(message);
  }
}

export interface PrometheusApiDeps {
  telemetry: TelemetryStore;
  maxSeries: number;
  timeoutMs: number;
  version: string;
}

type Answer<S extends z.ZodType> = z.input<S>;

/** Prometheus's cap on a range query's points per series. */
const MAX_POINTS = 11_000;
/** Without `start`/`end` the listing endpoints look at the last day (Prometheus: all of its TSDB). */
const DEFAULT_LISTING_MS = 24 * 3_600_000;
/** Most values a listing answers without `limit`. */
const LISTING_CAP = 100_000;
/** How long a project's metric catalogue is reused (promSource.ts cachedCatalogs). */
const CATALOG_TTL_MS = 5_000;

export function createPrometheusApi(deps: PrometheusApiDeps) {
  const { telemetry } = deps;

  /** Runs a query with the timeout (the config's, shortened by the request's) and maps its errors. */
  async function evaluate(p: PromParams, run: (signal: AbortSignal) => Promise<QueryData>): Promise<QueryData> {
    const asked = p.duration('timeout');
    const timeoutMs = asked !== undefined && asked > 0 ? Math.min(asked, deps.timeoutMs) : deps.timeoutMs;
    const ctrl = new AbortController();
    const timeout = new PromQLError('timeout', 'query timed out in expression evaluation');
    const timer = setTimeout(() => ctrl.abort(timeout), timeoutMs);
    try {
      return await run(ctrl.signal);
    } catch (err) {
      if (ctrl.signal.aborted) throw new PromApiError(503, 'timeout', timeout.message);
      throw asApiError(err);
    } finally {
      clearTimeout(timer);
    }
  }

  const catalogOf = cachedCatalogs(telemetry, CATALOG_TTL_MS);
  const source = (projectId: number) =>
    createPromSource({ telemetry, projectId, maxSeries: deps.maxSeries, catalog: () => catalogOf(projectId) });

  /** The matchers of each `match[]` selector (at least one when `required`). */
  function selectors(p: PromParams, required: boolean): LabelMatcher[][] | null {
    const match = p.all('match[]');
    if (match.length === 0) {
      if (required) throw new PromApiError(400, 'bad_data', 'no match[] parameter provided');
      return null;
    }
    return match.flatMap((m) => {
      try {
        return selectorsOf(parsePromQL(m));
      } catch (err) {
        throw asApiError(err);
      }
    });
  }

  function range(p: PromParams): { gte: Date; lt: Date } {
    const now = Date.now();
    const end = p.time('end', MAX_TIME_MS);
    const start = p.time('start', MIN_TIME_MS);
    const lt = Math.min(end === MAX_TIME_MS ? now : end, 4_102_444_800_000);
    const gte = Math.max(start === MIN_TIME_MS ? lt - DEFAULT_LISTING_MS : start, 0);
    if (lt < gte) throw new PromApiError(400, 'bad_data', 'end timestamp must not be before start time');
    // Whole minutes: the one holding `end` counts.
    return {
      gte: new Date(Math.floor(gte / 60_000) * 60_000),
      lt: new Date(Math.floor(lt / 60_000) * 60_000 + 60_000),
    };
  }

  /** The selections of the listing endpoints: per selector, per value column, the stored metrics. */
  async function selections(projectId: number, p: PromParams) {
    const { names } = await catalogOf(projectId);
    const sels = selectors(p, false) ?? [[]];
    const { gte, lt } = range(p);
    const watermark = telemetry.rollupWatermark();
    return sels.flatMap((matchers) => {
      const picked = namesMatching(names, matchers);
      const byBucket = new Map<boolean, PromName[]>();
      for (const n of picked) byBucket.set(n.column === 'bucket', [...(byBucket.get(n.column === 'bucket') ?? []), n]);
      return [...byBucket].map(([bucket, ns]) => ({
        bucket,
        names: ns,
        /** `le` matchers of derived buckets, applied once the buckets are made. */
        le: bucket ? matchers.filter((m) => m.name === 'le') : [],
        sel: {
          projectId,
          metrics: [...new Set(ns.map((n) => n.metric))],
          matchers: matchers.filter((m) => m.name !== '__name__' && !(bucket && m.name === 'le')),
          gte,
          lt,
          watermark,
        } satisfies Selection,
      }));
    });
  }

  const limited = <T>(xs: T[], limit: number): { data: T[]; warnings?: string[] } =>
    limit > 0 && xs.length > limit
      ? { data: xs.slice(0, limit), warnings: ['results truncated due to limit'] }
      : { data: xs };

  return {
    async query(projectId: number, p: PromParams): Promise<Answer<typeof PromQueryResponse>> {
      const expr = p.expr();
      const time = guard(() => p.time('time', Date.now()));
      const data = await evaluate(p, (signal) =>
        instantQuery(source(projectId), expr, time, { signal, maxSeries: deps.maxSeries }),
      );
      return { status: 'success', data };
    },

    async queryRange(projectId: number, p: PromParams): Promise<Answer<typeof PromQueryResponse>> {
      const expr = p.expr();
      const { start, end, step } = guard(() => {
        const start = p.time('start', NaN);
        if (Number.isNaN(start))
          throw new PromParamError('invalid parameter "start": cannot parse "" to a valid timestamp');
        const end = p.time('end', NaN);
        if (Number.isNaN(end))
          throw new PromParamError('invalid parameter "end": cannot parse "" to a valid timestamp');
        if (end < start)
          throw new PromParamError('invalid parameter "end": end timestamp must not be before start time');
        const step = p.duration('step');
        if (step === undefined)
          throw new PromParamError('invalid parameter "step": cannot parse "" to a valid duration');
        if (step <= 0)
          throw new PromParamError(
            'invalid parameter "step": zero or negative query resolution step widths are not accepted. Try a positive integer',
          );
        if ((end - start) / step > MAX_POINTS)
          throw new PromParamError(
            'exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)',
          );
        return { start, end, step };
      });
      const data = await evaluate(p, (signal) =>
        rangeQuery(source(projectId), expr, start, end, step, { signal, maxSeries: deps.maxSeries }),
      );
      return { status: 'success', data };
    },

    async labels(projectId: number, p: PromParams): Promise<Answer<typeof PromLabelsResponse>> {
      const limit = guard(() => p.limit());
      const names = new Set<string>();
      await storeErrors(async () => {
        for (const s of await guardAsync(() => selections(projectId, p))) {
          if (s.sel.metrics.length === 0) continue;
          const rows = await telemetry.query<{ name: string }>(labelNames(s.sel));
          if (rows.length === 0) continue;
          names.add('__name__');
          if (s.bucket) names.add('le');
          for (const r of rows) names.add(r.name);
        }
      });
      return { status: 'success', ...limited([...names].sort(), limit) };
    },

    async labelValues(projectId: number, rawName: string, p: PromParams): Promise<Answer<typeof PromLabelsResponse>> {
      const name = unescapeLabelName(rawName);
      const limit = guard(() => p.limit());
      const values = new Set<string>();
      await storeErrors(async () => {
        for (const s of await guardAsync(() => selections(projectId, p))) {
          if (s.sel.metrics.length === 0) continue;
          if (name === '__name__') {
            const stored = new Set(
              (await telemetry.query<{ metric: string }>(metricsWithData(s.sel))).map((r) => r.metric),
            );
            for (const n of s.names) if (stored.has(n.metric)) values.add(n.name);
          } else if (name === 'le' && s.bucket) {
            const rows = await telemetry.query<{ les: number[] }>(bucketBounds(s.sel));
            if (rows.length) values.add('+Inf');
            for (const v of boundsOf(rows.map((r) => r.les))) values.add(formatLe(v));
          } else {
            for (const r of await telemetry.query<{ value: string }>(labelValues(s.sel, name, LISTING_CAP)))
              values.add(r.value);
          }
        }
      });
      return { status: 'success', ...limited([...values].sort(), limit) };
    },

    async series(projectId: number, p: PromParams): Promise<Answer<typeof PromSeriesResponse>> {
      const limit = guard(() => p.limit());
      guard(() => selectors(p, true));
      const out = new Map<string, Labels>();
      await storeErrors(async () => {
        for (const s of await guardAsync(() => selections(projectId, p))) {
          if (s.sel.metrics.length === 0) continue;
          const rows = await telemetry.query<{ metric: string; string_keys: string[]; string_values: string[] }>(
            seriesList(s.sel, limit > 0 ? limit + 1 : LISTING_CAP),
          );
          const les = s.bucket
            ? [
                '+Inf',
                ...boundsOf((await telemetry.query<{ les: number[] }>(bucketBounds(s.sel))).map((r) => r.les)).map(
                  formatLe,
                ),
              ]
            : [undefined];
          for (const r of rows) {
            const labels: Labels = {};
            r.string_keys.forEach((k, i) => {
              if (r.string_values[i] !== '') labels[k] = r.string_values[i];
            });
            for (const n of s.names) {
              if (n.metric !== r.metric) continue;
              for (const le of les) {
                const l: Labels = { __name__: n.name, ...labels, ...(le !== undefined ? { le } : {}) };
                if (!s.le.every((m) => matchLe(l.le ?? '', m))) continue;
                out.set(JSON.stringify(Object.entries(l).sort()), l);
              }
            }
          }
        }
      });
      return { status: 'success', ...limited([...out.values()], limit) };
    },

    async metadata(projectId: number, p: PromParams): Promise<Answer<typeof PromMetadataResponse>> {
      const metric = p.get('metric');
      const limit = guard(() => p.limit());
      const { entries } = await storeErrors(() => catalogOf(projectId));
      const data: Record<string, { type: string; help: string; unit: string }[]> = {};
      for (const e of entries) {
        const type = promType(e.instrument);
        if (type === 'unknown' || type === 'summary') continue;
        const family = familyName(e);
        if (metric && metric !== family && metric !== e.name) continue;
        if (limit > 0 && Object.keys(data).length >= limit) break;
        data[family] = [{ type, help: e.description, unit: e.unit }];
      }
      return { status: 'success', data };
    },

    buildInfo(): Answer<typeof PromBuildInfoResponse> {
      return {
        status: 'success',
        data: {
          // The Prometheus API level Lantern answers as; Lantern's own version is the revision.
          version: '2.53.0',
          revision: `lantern-${deps.version}`,
          branch: 'lantern',
          buildUser: 'lantern',
          buildDate: '',
          goVersion: 'none (Lantern, Node.js)',
        },
      };
    },
  };
}

function matchLe(le: string, m: LabelMatcher): boolean {
  const re = m.type === '=~' || m.type === '!~' ? nodeRegex(m.value) : null;
  switch (m.type) {
    case '=':
      return le === m.value;
    case '!=':
      return le !== m.value;
    case '=~':
      return re!.test(le);
    case '!~':
      return !re!.test(le);
  }
}

/** Bad parameters are bad_data. */
function guard<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    throw asApiError(err);
  }
}

async function guardAsync<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (err) {
    throw asApiError(err);
  }
}

async function storeErrors<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (err) {
    throw asApiError(err);
  }
}

/** An error as Prometheus's API would answer it. */
export function asApiError(err: unknown): PromApiError | Error {
  if (err instanceof PromApiError) return err;
  if (err instanceof PromParamError) return new PromApiError(400, 'bad_data', err.message);
  if (err instanceof SeriesLimitError) return new PromApiError(422, 'execution', err.message);
  if (err instanceof PromQLError) {
    const status = err.errorType === 'bad_data' ? 400 : err.errorType === 'timeout' ? 503 : 422;
    return new PromApiError(status, err.errorType, err.message);
  }
  if (err instanceof StoreUnavailableError)
    return new PromApiError(503, 'unavailable', 'the telemetry store is unavailable; try again in a few seconds');
  // The engine refused a query (an invalid RE2 regex, a memory limit): the query's fault, said as is.
  if (err instanceof StoreQueryError) return new PromApiError(422, 'execution', err.message.split('\n')[0]);
  return err instanceof Error ? err : new Error(String(err));
}
