import { useCallback, useEffect, useMemo } from 'react';
import { useAddressState } from '../../../lib/url/useAddressState';
import { defaultGroupQuery } from '../query/defaultQueries';

/**
 * Explore spans view state, all in the address (spec §2, §4): systems (repeatable `system`), the
 * query, the sort and the plotted columns. A page opened with systems but no query gets the
 * default group query for them (replacing the entry, so Back does not return to the bare address).
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

  const setSystems = useCallback((s: string[]) => set({ system: s }), [set]);
  const setQuery = useCallback((q: string) => set({ query: q }), [set]);
  const sortBy = params.get('sort_by') ?? undefined;
  const sortDesc = params.get('sort_desc') !== '0';
  const columnsKey = params.getAll('column').join('\n');
  const columns = useMemo(() => (columnsKey ? columnsKey.split('\n') : []), [columnsKey]);
  return {
    address,
    systems,
    setSystems,
    query,
    /** False until the address has a query (the default one is being written). */
    hasQuery: rawQuery !== null,
    setQuery,
    sortBy,
    sortDesc,
    setSort: (column: string, desc: boolean) => set({ sort_by: column, sort_desc: desc ? '1' : '0' }),
    columns,
    setColumns: (c: string[]) => set({ column: c }),
  };
}

export type ExploreState = ReturnType<typeof useExploreState>;
