import { useCallback, useEffect, useMemo } from 'react';
import { useAddressState } from '../../../lib/url/useAddressState';
import { defaultGroupQuery } from '../query/defaultQueries';

/** The span list's page in the address: a whole number from 1 (anything else is page 1). */
export function pageParam(text: string | null): number {
  const n = text !== null && /^\d{1,7}$/.test(text) ? Number(text) : 1;
  return n >= 1 ? n : 1;
}

/**
 * Explore spans view state, all in the address (spec §2, §4): systems (repeatable `system`), the
 * query, the sort, the plotted columns, the span list's page (`page`, left out on page 1) and the
 * spans "What changed" explains (`selection`, a `where` part, Timeseries tab). A
 * page opened with systems but no query gets the default group query for them (replacing the
 * entry, so Back does not return to the bare address). A new query or order starts the list at
 * page 1, as do new systems (ExploreSpansPage): the page belongs to one list.
 */
export function useExploreState() {
  const address = useAddressState();
  const { params, set } = address;
  const systemsKey = params.getAll('system').join('\n');
  const systems = useMemo(() => (systemsKey ? systemsKey.split('\n') : []), [systemsKey]);
  const rawQuery = params.get('query');
  const query = rawQuery ?? '';

  useEffect(() => {
    if (systems.length > 0 && rawQuery === null) set({ query: defaultGroupQuery(systems) }, { replace: true });
  }, [systems, rawQuery, set]);

  const setQuery = useCallback((q: string) => set({ query: q, page: null }), [set]);
  /** The user paging pushes an entry (Back returns to the page before); a correction replaces it. */
  const setPage = useCallback(
    (p: number, replace = false) => set({ page: p > 1 ? String(p) : null }, { replace }),
    [set],
  );
  const sortBy = params.get('sort_by') ?? undefined;
  const sortDesc = params.get('sort_desc') !== '0';
  const columnsKey = params.getAll('column').join('\n');
  const columns = useMemo(() => (columnsKey ? columnsKey.split('\n') : []), [columnsKey]);
  return {
    address,
    systems,
    query,
    /** False until the address has a query (the default one is being written). */
    hasQuery: rawQuery !== null,
    setQuery,
    sortBy,
    sortDesc,
    setSort: (column: string, desc: boolean) => set({ sort_by: column, sort_desc: desc ? '1' : '0', page: null }),
    page: pageParam(params.get('page')),
    setPage,
    columns,
    setColumns: (c: string[]) => set({ column: c }),
    selection: params.get('selection') ?? undefined,
    setSelection: (s: string | null) => set({ selection: s }),
    /** The Spans tab's live tail (`live=1`): kept on reload with the systems and the query. */
    live: params.get('live') === '1',
    setLive: (on: boolean) => set({ live: on ? '1' : null, page: null }),
  };
}

export type ExploreState = ReturnType<typeof useExploreState>;
