import { MAX_DB_INT, type Alert, type AlertListQuery, type Facet } from '@lantern/shared';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { toAlert } from './alerts.store';
import type { AuthTables } from '../auth';
import type { AlertingTables } from './alerting.migration';
import type { AlertingDb } from './db';

/**
 * The alert list (reference alerting §2.11) in SQL, on SQLite and PostgreSQL alike: free-text
 * words, `attrs[key]` filters (OR within a key, AND across keys), facet counts, sorting and paging
 * are all done by the database, over every alert of the project (no newest-N window). Attribute
 * filters and facets read `alert_attrs` (one row per attribute, indexed by project, key, value);
 * words are matched against the name and `attrs_text` (the attribute values, lower-cased).
 */
const STATE_KEYS = new Set(['alert.state', 'state']);
const TYPE_KEY = 'alert.type';
/** A facet lists at most this many values (the most frequent first). */
export const MAX_FACET_VALUES = 1000;

/** Splits `q` into a `monitor:<id>` filter and lower-cased words (each once). */
export function parseAlertQuery(q: string): { monitorId?: number; words: string[] } {
  let monitorId: number | undefined;
  const words = new Set<string>();
  for (const token of q.split(/\s+/).filter(Boolean)) {
    const m = /^monitor:(\d{1,10})$/.exec(token);
    // An id no database integer holds names no monitor: 0 (ids start at 1) matches nothing.
    if (m) monitorId = Number(m[1]) <= MAX_DB_INT ? Number(m[1]) : 0;
    else words.add(token.toLowerCase());
  }
  return { monitorId, words: [...words] };
}

export interface AlertFilter {
  projectId: number;
  monitorId?: number;
  words: string[];
  /** updated_at bounds (ISO). */
  from?: string;
  to?: string;
  /** Keyed by facet key: `alert.state`, `alert.type` or an attribute key. */
  filters: { key: string; values: string[] }[];
}

export type AlertListInput = Pick<
  AlertListQuery,
  'q' | 'attrs' | 'sort_by' | 'sort_desc' | 'page' | 'limit' | 'time_gte' | 'time_lt'
>;

export function toFilter(projectId: number, q: AlertListInput): AlertFilter {
  const { monitorId, words } = parseAlertQuery(q.q);
  const merged = new Map<string, string[]>();
  for (const [key, values] of Object.entries(q.attrs)) {
    if (!values.length) continue;
    const k = STATE_KEYS.has(key) ? 'alert.state' : key;
    merged.set(k, [...new Set([...(merged.get(k) ?? []), ...values])]);
  }
  return {
    projectId,
    monitorId,
    words,
    from: q.time_gte && new Date(q.time_gte).toISOString(),
    to: q.time_lt && new Date(q.time_lt).toISOString(),
    filters: [...merged].map(([key, values]) => ({ key, values })),
  };
}

/** `%word%` for LIKE, with the wildcards of the word itself escaped. */
const likePattern = (w: string) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The WHERE of the list, leaving out the filter on `except` (a facet counts without its own filter). */
function matching(f: AlertFilter, except?: string) {
  return (eb: ExpressionBuilder<AlertingTables & AuthTables, 'alerts'>): Expression<SqlBool> => {
    const parts: Expression<SqlBool>[] = [eb('alerts.project_id', '=', f.projectId)];
    if (f.monitorId !== undefined)
      parts.push(
        eb.or([
          eb('alerts.monitor_id', '=', f.monitorId),
          eb(
            'alerts.id',
            'in',
            eb.selectFrom('alert_monitor_links').select('alert_id').where('monitor_id', '=', f.monitorId),
          ),
        ]),
      );
    if (f.from) parts.push(eb('alerts.updated_at', '>=', f.from));
    if (f.to) parts.push(eb('alerts.updated_at', '<', f.to));
    for (const w of f.words) {
      const pat = likePattern(w);
      parts.push(
        eb.or([
          sql<SqlBool>`lower(alerts.name) like ${pat} escape '\\'`,
          sql<SqlBool>`alerts.attrs_text like ${pat} escape '\\'`,
        ]),
      );
    }
    for (const flt of f.filters) {
      if (flt.key === except) continue;
      if (flt.key === 'alert.state') parts.push(eb('alerts.state', 'in', flt.values));
      else if (flt.key === TYPE_KEY) parts.push(eb('alerts.type', 'in', flt.values));
      else {
        // A semi-join driven by the (project, key, value) index: the few matching ids, not a probe per alert.
        const ids = eb
          .selectFrom('alert_attrs as f')
          .select('f.alert_id')
          .where('f.project_id', '=', f.projectId)
          .where('f.key', '=', flt.key)
          .where('f.value', 'in', flt.values);
        parts.push(eb('alerts.id', 'in', ids));
      }
    }
    return eb.and(parts);
  };
}

const num = (v: unknown) => Number(v ?? 0);
const byCount = (x: { value: string; count: number }, y: { value: string; count: number }) =>
  y.count - x.count || (x.value < y.value ? -1 : x.value > y.value ? 1 : 0);

export function createAlertList(db: AlertingDb) {
  /** Counts per state or type, without that facet's own filter. */
  async function columnFacet(f: AlertFilter, key: 'alert.state' | 'alert.type'): Promise<Facet> {
    const col = key === 'alert.state' ? 'alerts.state' : 'alerts.type';
    const rows = await db
      .selectFrom('alerts')
      .select([`${col} as value`, (eb) => eb.fn.countAll().as('count')])
      .where(matching(f, key))
      .groupBy(col)
      .execute();
    return { key, items: rows.map((r) => ({ key, value: String(r.value), count: num(r.count) })).sort(byCount) };
  }

  /** Counts per (key, value) of the alerts matching `f` without `except`'s filter; only `onlyKey` when given. */
  async function attrCounts(f: AlertFilter, except?: string, onlyKey?: string) {
    let q = db
      .selectFrom('alert_attrs as a')
      .innerJoin('alerts', 'alerts.id', 'a.alert_id')
      .select(['a.key as key', 'a.value as value', (eb) => eb.fn.countAll().as('count')])
      .where('a.project_id', '=', f.projectId)
      .where(matching(f, except));
    if (onlyKey !== undefined) q = q.where('a.key', '=', onlyKey);
    const rows = await q.groupBy(['a.key', 'a.value']).execute();
    return rows.map((r) => ({ key: r.key, value: r.value, count: num(r.count) }));
  }

  async function facets(f: AlertFilter): Promise<Facet[]> {
    const attrFiltered = f.filters.filter((x) => x.key !== 'alert.state' && x.key !== TYPE_KEY).map((x) => x.key);
    const [state, type, all, ...own] = await Promise.all([
      columnFacet(f, 'alert.state'),
      columnFacet(f, TYPE_KEY),
      attrCounts(f),
      ...attrFiltered.map((k) => attrCounts(f, k, k)),
    ]);
    const byKey = new Map<string, { key: string; value: string; count: number }[]>();
    for (const r of all) if (!attrFiltered.includes(r.key)) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
    attrFiltered.forEach((k, i) => byKey.set(k, own[i]));
    const attrFacets = [...byKey.keys()]
      .sort()
      .map((key) => ({ key, items: byKey.get(key)!.sort(byCount).slice(0, MAX_FACET_VALUES) }));
    return [state, type, ...attrFacets];
  }

  return {
    async list(
      f: AlertFilter,
      q: Pick<AlertListInput, 'sort_by' | 'sort_desc' | 'page' | 'limit'>,
    ): Promise<{ alerts: Alert[]; count: number; facets: Facet[] }> {
      const dir = q.sort_desc ? 'desc' : 'asc';
      const col = q.sort_by === 'created_at' ? 'alerts.created_at' : 'alerts.updated_at';
      const [rows, total, facetList] = await Promise.all([
        db
          .selectFrom('alerts')
          .selectAll()
          .where(matching(f))
          .orderBy(col, dir)
          .orderBy('alerts.id', dir)
          .limit(q.limit)
          .offset((q.page - 1) * q.limit)
          .execute(),
        db
          .selectFrom('alerts')
          .select((eb) => eb.fn.countAll().as('count'))
          .where(matching(f))
          .executeTakeFirstOrThrow(),
        facets(f),
      ]);
      return { alerts: rows.map(toAlert), count: num(total.count), facets: facetList };
    },

    /** Ids of every alert matching `f` (no paging), for bulk actions over a filter. */
    ids: async (f: AlertFilter): Promise<number[]> =>
      (await db.selectFrom('alerts').select('alerts.id').where(matching(f)).orderBy('alerts.id').execute()).map(
        (r) => r.id,
      ),
  };
}

export type AlertList = ReturnType<typeof createAlertList>;
