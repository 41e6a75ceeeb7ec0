import type { Alert, AlertListQuery, Facet } from '@lantern/shared';

/**
 * Filtering, facets, sorting and paging of the alert list (reference alerting §2.11), over the
 * newest alerts of a project. Pure, so the rules are tested without a database.
 */
const STATE_KEYS = new Set(['alert.state', 'state']);
const TYPE_KEY = 'alert.type';

/** Splits `q` into a `monitor:<id>` filter and lower-cased words. */
export function parseAlertQuery(q: string): { monitorId?: number; words: string[] } {
  let monitorId: number | undefined;
  const words: string[] = [];
  for (const token of q.split(/\s+/).filter(Boolean)) {
    const m = /^monitor:(\d{1,10})$/.exec(token);
    if (m) monitorId = Number(m[1]);
    else words.push(token.toLowerCase());
  }
  return { monitorId, words };
}

type Filter = { key: string; values: Set<string> };

function valueOf(a: Alert, key: string): string | undefined {
  if (STATE_KEYS.has(key)) return a.state;
  if (key === TYPE_KEY) return a.type;
  return a.attrs[key];
}

const facetKey = (key: string) => (STATE_KEYS.has(key) ? 'alert.state' : key);

export function listAlerts(all: Alert[], query: Pick<AlertListQuery, 'q' | 'attrs' | 'sort_by' | 'sort_desc' | 'page' | 'limit'>): { alerts: Alert[]; count: number; facets: Facet[] } {
  const { words } = parseAlertQuery(query.q);
  const filters: Filter[] = Object.entries(query.attrs)
    .filter(([, vs]) => vs.length)
    .map(([key, vs]) => ({ key: facetKey(key), values: new Set(vs) }));

  const textOk = all.filter((a) => {
    if (!words.length) return true;
    const text = [a.name, ...Object.values(a.attrs)].join(' ').toLowerCase();
    return words.every((w) => text.includes(w));
  });
  const matches = (a: Alert, except?: string) => filters.every((f) => f.key === except || f.values.has(valueOf(a, f.key) ?? '\u0000'));
  const matching = textOk.filter((a) => matches(a));

  const facetFor = (key: string): Facet => {
    const counts = new Map<string, number>();
    for (const a of textOk) {
      if (!matches(a, key)) continue;
      const v = valueOf(a, key);
      if (v !== undefined) counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    const items = [...counts].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0])).map(([value, count]) => ({ key, value, count }));
    return { key, items };
  };
  const attrKeys = new Set<string>();
  for (const a of matching) for (const k of Object.keys(a.attrs)) attrKeys.add(k);
  for (const f of filters) if (f.key !== 'alert.state' && f.key !== TYPE_KEY) attrKeys.add(f.key);
  const facets = [facetFor('alert.state'), facetFor(TYPE_KEY), ...[...attrKeys].sort().map(facetFor)];

  const col = query.sort_by === 'created_at' ? 'createdAt' : 'updatedAt';
  const dir = query.sort_desc ? -1 : 1;
  const sorted = [...matching].sort((x, y) => (x[col] < y[col] ? -dir : x[col] > y[col] ? dir : (x.id - y.id) * dir));
  const start = (query.page - 1) * query.limit;
  return { alerts: sorted.slice(start, start + query.limit), count: matching.length, facets };
}
