import { useCallback, useEffect, useMemo } from 'react';
import type { AddressPatch } from '../../../lib/url/addressPatch';
import { useAddressState } from '../../../lib/url/useAddressState';

/**
 * The alert list's view state, all in the address (spec platform §2.1, §2.5; reference §1.3.14):
 * `q`, one repeatable `attrs.<key>` per facet filter, `sort_by`, `sort_desc` and `page`. An address
 * without any query gets the default filter `attrs.alert.state=open` (replacing the entry).
 */
export const ATTR_PREFIX = 'attrs.';
export const ALERTS_PER_PAGE = 10;
export type AlertSort = 'updated_at' | 'created_at';

export function useAlertListState() {
  const { params, set } = useAddressState();
  const empty = params.toString() === '';

  useEffect(() => {
    if (empty) set({ [`${ATTR_PREFIX}alert.state`]: ['open'] }, { replace: true });
  }, [empty, set]);

  const attrsKey = [...params.keys()]
    .filter((k) => k.startsWith(ATTR_PREFIX))
    .map((k) => `${k}\u0000${params.getAll(k).join('\u0001')}`)
    .join('\u0002');
  const attrs = useMemo(() => {
    const out: Record<string, string[]> = empty ? { 'alert.state': ['open'] } : {};
    for (const entry of attrsKey ? attrsKey.split('\u0002') : []) {
      const [k, vs] = entry.split('\u0000');
      out[k.slice(ATTR_PREFIX.length)] = vs.split('\u0001').filter((v) => v !== '');
    }
    return out;
  }, [attrsKey, empty]);

  const q = params.get('q') ?? '';
  const sortBy: AlertSort = params.get('sort_by') === 'created_at' ? 'created_at' : 'updated_at';
  const sortDesc = params.get('sort_desc') !== '0';
  const page = Math.min(1000, Math.max(1, Number(params.get('page')) || 1));

  /** Filter changes go back to page 1; `q` is always written so the list never falls back to the default. */
  const setFilter = useCallback(
    (patch: AddressPatch) => set({ q: params.get('q') ?? '', page: null, ...patch }),
    [set, params],
  );

  return {
    q,
    attrs,
    sortBy,
    sortDesc,
    page,
    setQ: (text: string) => setFilter({ q: text }),
    setAttr: (key: string, values: string[]) => setFilter({ [`${ATTR_PREFIX}${key}`]: values.length ? values : null }),
    /** Back to the default filter (open alerts, no search). */
    resetAll: () => {
      const patch: AddressPatch = { q: null, page: null };
      for (const k of params.keys()) if (k.startsWith(ATTR_PREFIX)) patch[k] = null;
      set({ ...patch, [`${ATTR_PREFIX}alert.state`]: ['open'] });
    },
    setSort: (by: AlertSort) => set({ sort_by: by, sort_desc: '1', page: null }),
    setPage: (p: number) => set({ page: p > 1 ? String(p) : null }),
  };
}

export type AlertListState = ReturnType<typeof useAlertListState>;
