import type { Instrument, Metric } from '@lantern/shared';
import { join, param, sql, type SqlFragment } from '../storage/sql';
import type { TelemetryStore } from '../storage/telemetry';
import { classicConditions, classicHistogramRows, familyOfBucket, LE } from './query/classicHistogram';
import { compileWhere, datapointRows, type WhereClause } from './query/compileSeries';
import type { DatapointTable } from './query/timeRange';

/**
 * Reads of the metric catalogue and datapoints (reference query §6.3–6.4, ingest §5.4). Listing
 * and key/value lookups use the hourly rollup for ranges of 6 hours or more.
 */
interface CatalogRow {
  name: string;
  m_description: string;
  m_unit: string;
  m_instrument: string;
  m_attr_keys: string[];
  m_created_at: string;
  m_updated_at: string;
  /** Not a row of the catalogue: a classic histogram read from its `_bucket` row (withClassicHistograms). */
  classic?: true;
}

const INSTRUMENTS = new Set(['gauge', 'additive', 'counter', 'histogram', 'summary']);

/**
 * The catalogue's rows with, for each `<family>_bucket` counter that has an `le` attribute and no
 * metric of the family's own name, the classic histogram `<family>` read from it
 * (query/classicHistogram.ts): its attributes without `le`, its description and unit.
 */
function withClassicHistograms(rows: readonly CatalogRow[]): CatalogRow[] {
  const names = new Set(rows.map((r) => r.name));
  const out = [...rows];
  for (const r of rows) {
    const family = familyOfBucket(r.name);
    if (family === null || names.has(family) || !isBucketCounter(r)) continue;
    names.add(family);
    out.push({
      ...r,
      name: family,
      m_instrument: 'histogram',
      m_attr_keys: r.m_attr_keys.filter((k) => k !== LE),
      classic: true,
    });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const isBucketCounter = (r: CatalogRow) => r.m_instrument === 'counter' && r.m_attr_keys.includes(LE);

function toMetric(projectId: number, r: CatalogRow, fromSpans: ReadonlySet<string>): Metric {
  return {
    id: `${projectId}:${r.name}`,
    projectId,
    name: r.name,
    description: r.m_description,
    instrument: (INSTRUMENTS.has(r.m_instrument) ? r.m_instrument : 'deleted') as Instrument,
    unit: r.m_unit,
    attrKeys: r.m_attr_keys,
    createdAt: chTime(r.m_created_at),
    updatedAt: chTime(r.m_updated_at),
    ...(fromSpans.has(r.name) ? { fromSpans: true as const } : {}),
    ...(r.classic ? { fromBuckets: true as const } : {}),
  };
}

/** ClickHouse DateTime text (`2026-01-01 10:00:00`, UTC) -> RFC 3339. */
export function chTime(s: string): string {
  return s.includes('T') ? s : `${s.replace(' ', 'T')}Z`;
}

// Output names differ from the columns: a ClickHouse alias would shadow the column inside the aggregates.
// The latest row wins; between rows of the same second (updated_at is whole seconds) a description
// or unit wins over none: a Prometheus remote write sends samples before their metadata, so its
// first row lacks them and the next one, often in the same second, has them (catalogTies.int.test).
const catalogSelect = sql`SELECT name, argMax(description, (updated_at, description != '')) AS m_description,
  argMax(unit, (updated_at, unit != '')) AS m_unit,
  argMax(instrument, updated_at) AS m_instrument, argMax(attr_keys, (updated_at, length(attr_keys))) AS m_attr_keys,
  toString(min(created_at)) AS m_created_at, toString(max(updated_at)) AS m_updated_at FROM metrics_catalog`;

export interface TimeBounds {
  gte: Date;
  lt: Date;
}

function rangeTable(b: TimeBounds): DatapointTable {
  return b.lt.getTime() - b.gte.getTime() >= 6 * 3600_000 ? 'datapoint_hours' : 'datapoint_minutes';
}

/** How long a catalogue entry read by `describe` is used again (its unit, instrument, description). */
const DESCRIBED_FRESH_MS = 2000;
const DESCRIBED_MAX = 10_000;

/**
 * `opts.fromSpans`: the names of the metrics derived from spans (the config's `metrics_from_spans`),
 * marked so in every answer (`Metric.fromSpans`).
 */
export function createMetricsStore(store: TelemetryStore, opts: { fromSpans?: readonly string[] } = {}) {
  const fromSpans: ReadonlySet<string> = new Set(opts.fromSpans ?? []);
  const described = new Map<string, { at: number; metric: Metric }>();
  /** A query of the datapoints `FROM` rows (datapointRows: the rollups and, after their watermark, the minutes). */
  const queryRows = <T>(table: DatapointTable, conds: SqlFragment[], lt: Date, q: (from: SqlFragment) => SqlFragment) =>
    store.readRollups((watermark) => store.query<T>(q(datapointRows(table, conds, lt, watermark))));
  return {
    /** Metrics seen in the last 24 hours (reference: the catalogue rows updated within a day). */
    async list(projectId: number, opts: { instrument?: string; attrKeys?: string[] } = {}): Promise<Metric[]> {
      const having: SqlFragment[] = [sql`max(updated_at) >= now() - INTERVAL 1 DAY`];
      // A classic histogram comes from its `_bucket` counter: kept here, picked by instrument below.
      if (opts.instrument)
        having.push(
          opts.instrument === 'histogram'
            ? sql`(m_instrument = 'histogram' OR (m_instrument = 'counter' AND endsWith(name, '_bucket')))`
            : sql`m_instrument = ${param.string(opts.instrument)}`,
        );
      if (opts.attrKeys?.length) having.push(sql`hasAll(m_attr_keys, ${param.strings(opts.attrKeys)})`);
      const rows = await store.query<CatalogRow>(
        sql`${catalogSelect} WHERE project_id = ${param.uint32(projectId)} GROUP BY name HAVING ${join(having, ' AND ')} ORDER BY name LIMIT 10000`,
      );
      return withClassicHistograms(rows)
        .filter((r) => !opts.instrument || r.m_instrument === opts.instrument)
        .filter((r) => !r.classic || !opts.attrKeys?.includes(LE))
        .map((r) => toMetric(projectId, r, fromSpans));
    },

    /**
     * Catalogue entries of the given names (any age): instrument and unit for the query engine.
     * Kept for DESCRIBED_FRESH_MS: every panel of a dashboard asks before its query, and the
     * engine runs one query at a time, so each ask would wait behind the panels' queries already
     * queued (a name not in the catalogue is asked again every time).
     */
    async describe(projectId: number, names: readonly string[]): Promise<Metric[]> {
      if (names.length === 0) return [];
      const now = Date.now();
      const key = (name: string) => `${projectId}\u0000${name}`;
      const fresh = (name: string) => {
        const hit = described.get(key(name));
        return hit && now - hit.at < DESCRIBED_FRESH_MS ? hit.metric : undefined;
      };
      const unique = [...new Set(names)].sort();
      const missing = unique.filter((n) => !fresh(n));
      if (missing.length > 0) {
        // With each name's `_bucket` series: a name the catalogue lacks may be a classic histogram.
        const asked = [...missing, ...missing.map((n) => `${n}_bucket`)];
        const rows = await store.query<CatalogRow>(
          sql`${catalogSelect} WHERE project_id = ${param.uint32(projectId)} AND has(${param.strings(asked)}, name) GROUP BY name ORDER BY name`,
        );
        if (described.size > DESCRIBED_MAX) described.clear();
        for (const r of withClassicHistograms(rows))
          described.set(key(r.name), { at: now, metric: toMetric(projectId, r, fromSpans) });
      }
      return unique.flatMap((n) => {
        const m = fresh(n);
        return m ? [{ ...m }] : [];
      });
    },

    /** Metrics with data in the range, with their number of series (reference `stats`). */
    async stats(
      projectId: number,
      b: TimeBounds,
      opts: { search: string; attrKeys: string[]; instrument?: string },
    ): Promise<{ metrics: Metric[]; hasMore: boolean }> {
      const conds: SqlFragment[] = [
        sql`project_id = ${param.uint32(projectId)}`,
        sql`time >= ${param.secondsUp(b.gte)}`,
        sql`time < ${param.secondsUp(b.lt)}`,
      ];
      if (opts.attrKeys.length) conds.push(sql`hasAll(string_keys, ${param.strings(opts.attrKeys)})`);
      if (opts.search) conds.push(sql`positionCaseInsensitiveUTF8(metric, ${param.string(opts.search)}) != 0`);
      // A classic histogram's data are its `_bucket` counter's: kept here, picked by instrument below.
      if (opts.instrument)
        conds.push(
          opts.instrument === 'histogram'
            ? sql`(instrument = 'histogram' OR endsWith(metric, '_bucket'))`
            : sql`instrument = ${param.string(opts.instrument)}`,
        );
      const LIMIT = 1000;
      const count = (conds: SqlFragment[], series: SqlFragment) =>
        queryRows<{ name: string; num: string | number }>(
          rangeTable(b),
          conds,
          b.lt,
          (from) =>
            sql`SELECT metric AS name, uniqCombined64(${series}) AS num FROM ${from} GROUP BY metric ORDER BY metric LIMIT ${param.uint32(LIMIT + 1)}`,
        );
      const rows = await count(conds, sql`attrs_hash`);
      const hasMore = rows.length > LIMIT;
      const counts = new Map(rows.slice(0, LIMIT).map((r) => [r.name, Number(r.num)]));
      const families = [...counts.keys()].flatMap((n) => familyOfBucket(n) ?? []);
      const described = (await this.describe(projectId, [...counts.keys(), ...families])).filter(
        (m) =>
          (!opts.instrument || m.instrument === opts.instrument) &&
          (!m.fromBuckets || (!opts.attrKeys.includes(LE) && m.name.toLowerCase().includes(opts.search.toLowerCase()))),
      );
      // A classic histogram's series are its buckets' without `le`.
      const classic = described.filter((m) => m.fromBuckets).map((m) => `${m.name}_bucket`);
      if (classic.length > 0) {
        const perFamily = await count(
          [...conds, sql`has(${param.strings(classic)}, metric)`],
          sql`arrayFilter((v, k) -> k != ${param.string(LE)}, string_values, string_keys)`,
        );
        for (const r of perFamily) counts.set(familyOfBucket(r.name)!, Number(r.num));
      }
      return { metrics: described.map((m) => ({ ...m, numTimeseries: counts.get(m.name) ?? 0 })), hasMore };
    },

    /**
     * Attribute keys: without metrics, keys of every metric in the range with the number of metrics
     * having each; with metrics, only keys every one of them has (so they can be joined on).
     */
    async attrKeys(
      projectId: number,
      b: TimeBounds,
      metrics: readonly string[],
      search: string,
    ): Promise<{ value: string; count: number }[]> {
      const conds: SqlFragment[] = [
        sql`project_id = ${param.uint32(projectId)}`,
        sql`time >= ${param.secondsUp(b.gte)}`,
        sql`time < ${param.secondsUp(b.lt)}`,
      ];
      const { names: uniq, classic } = await this.storedNames(projectId, metrics);
      if (uniq.length) conds.push(sql`has(${param.strings(uniq)}, metric)`);
      const keep: SqlFragment[] = [];
      if (search) keep.push(sql`positionCaseInsensitiveUTF8(key, ${param.string(search)}) != 0`);
      // A classic histogram's series have no `le`: its buckets' do.
      if (classic) keep.push(sql`key != ${param.string(LE)}`);
      const filter = keep.length ? sql` WHERE ${join(keep, ' AND ')}` : sql``;
      const having = uniq.length ? sql` HAVING count = ${param.uint32(uniq.length)}` : sql``;
      const rows = await queryRows<{ key: string; count: string | number }>(
        rangeTable(b),
        conds,
        b.lt,
        (from) =>
          sql`SELECT key, uniqExact(metric) AS count FROM (SELECT DISTINCT metric, arrayJoin(string_keys) AS key FROM ${from})${filter} GROUP BY key${having} ORDER BY count DESC, key LIMIT 10000`,
      );
      return rows.map((r) => ({ value: r.key, count: Number(r.count) }));
    },

    /** Values of one attribute key with the number of timeseries having each, by value (of the series `where` keeps). */
    async attrValues(
      projectId: number,
      b: TimeBounds,
      metrics: readonly string[],
      key: string,
      search: string,
      where: WhereClause[] = [],
    ): Promise<{ value: string; count: number }[]> {
      const conds: SqlFragment[] = [
        sql`project_id = ${param.uint32(projectId)}`,
        sql`time >= ${param.secondsUp(b.gte)}`,
        sql`time < ${param.secondsUp(b.lt)}`,
        sql`has(string_keys, ${param.string(key)})`,
      ];
      if (metrics.length)
        conds.push(sql`has(${param.strings((await this.storedNames(projectId, metrics)).names)}, metric)`);
      if (search)
        conds.push(
          sql`positionCaseInsensitiveUTF8(string_values[indexOf(string_keys, ${param.string(key)})], ${param.string(search)}) != 0`,
        );
      conds.push(...where.map(compileWhere));
      const rows = await queryRows<{ value: string; count: string | number }>(
        rangeTable(b),
        conds,
        b.lt,
        (from) =>
          sql`SELECT string_values[indexOf(string_keys, ${param.string(key)})] AS value, uniqCombined64(metric, attrs_hash) AS count FROM ${from} GROUP BY value ORDER BY value LIMIT 1000`,
      );
      return rows.map((r) => ({ value: r.value, count: Number(r.count) }));
    },

    /**
     * The stored metrics behind `metrics`: a classic histogram's `_bucket` series in its place
     * (`classic`: there was one).
     */
    async storedNames(projectId: number, metrics: readonly string[]): Promise<{ names: string[]; classic: boolean }> {
      const uniq = [...new Set(metrics)];
      if (uniq.length === 0) return { names: [], classic: false };
      const families = new Set((await this.describe(projectId, uniq)).filter((m) => m.fromBuckets).map((m) => m.name));
      return {
        names: [...new Set(uniq.map((n) => (families.has(n) ? `${n}_bucket` : n)))],
        classic: families.size > 0,
      };
    },

    /** Per bucket, the histogram's summed bucket map (heatmap). */
    async histogramBuckets(
      projectId: number,
      metric: string,
      grid: { gte: Date; lt: Date; bucketMin: number; table: DatapointTable },
      where: WhereClause[],
    ): Promise<{ t: number; values: number[]; counts: number[] }[]> {
      const attrs = where.map(compileWhere);
      const select = (from: SqlFragment) =>
        sql`SELECT toUnixTimestamp(toStartOfInterval(time, toIntervalMinute(${param.uint32(grid.bucketMin)}))) AS t, sumMap(histogram) AS h FROM ${from} GROUP BY t ORDER BY t LIMIT 10000`;
      type Row = { t: string | number; h: [number[], (string | number)[]] };
      const [described] = await this.describe(projectId, [metric]);
      const rows = described?.fromBuckets
        ? // The attribute conditions hold for the joined series (without `le`).
          await queryRows<Row>(grid.table, classicConditions(projectId, metric, grid.gte, grid.lt), grid.lt, (from) => {
            const joined = classicHistogramRows(from, projectId, metric);
            return select(attrs.length ? sql`(SELECT * FROM ${joined} WHERE ${join(attrs, ' AND ')})` : joined);
          })
        : await queryRows<Row>(
            grid.table,
            [
              sql`project_id = ${param.uint32(projectId)}`,
              sql`metric = ${param.string(metric)}`,
              sql`time >= ${param.secondsUp(grid.gte)}`,
              sql`time < ${param.secondsUp(grid.lt)}`,
              ...attrs,
            ],
            grid.lt,
            select,
          );
      return rows.map((r) => ({ t: Number(r.t), values: r.h[0], counts: r.h[1].map(Number) }));
    },
  };
}

export type MetricsStore = ReturnType<typeof createMetricsStore>;
