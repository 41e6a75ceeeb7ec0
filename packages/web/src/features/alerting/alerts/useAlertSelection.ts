import type { Alert, Facet } from '@lantern/shared';
import { useCallback, useMemo, useState } from 'react';

/**
 * The list's selection (spec platform §4: toggle one, toggle page, toggle all). "All" means every
 * alert matching the filter, on any page: its open / closed split comes from the state facet, and
 * the actions resolve it on the server (close-all) or by fetching the matching ids.
 */
export type Selection = { all: true } | { all: false; ids: ReadonlyMap<number, string> };

export interface SelectionCounts {
  total: number;
  open: number;
  closed: number;
}

/** Open / closed counts of "all" from the state facet, limited to the states the filter allows. */
export function allCounts(
  count: number,
  facets: Facet[] | undefined,
  stateFilter: string[] | undefined,
): SelectionCounts {
  const items = facets?.find((f) => f.key === 'alert.state')?.items ?? [];
  const of = (state: string) =>
    stateFilter?.length && !stateFilter.includes(state) ? 0 : (items.find((i) => i.value === state)?.count ?? 0);
  return { total: count, open: of('open'), closed: of('closed') };
}

export function useAlertSelection(
  page: Alert[],
  count: number,
  facets: Facet[] | undefined,
  stateFilter: string[] | undefined,
) {
  const [sel, setSel] = useState<Selection>({ all: false, ids: new Map() });
  const isSelected = useCallback((id: number) => sel.all || sel.ids.has(id), [sel]);
  const onPage = page.filter((a) => isSelected(a.id)).length;

  const counts = useMemo<SelectionCounts>(() => {
    if (sel.all) return allCounts(count, facets, stateFilter);
    const states = [...sel.ids.values()];
    return {
      total: states.length,
      open: states.filter((s) => s === 'open').length,
      closed: states.filter((s) => s === 'closed').length,
    };
  }, [sel, count, facets, stateFilter]);

  const clear = useCallback(() => setSel({ all: false, ids: new Map() }), []);
  const idsOf = (s: Selection): Map<number, string> =>
    s.all ? new Map(page.map((a) => [a.id, a.state])) : new Map(s.ids);

  return {
    selection: sel,
    counts,
    isSelected,
    /** none | some | all of the current page. */
    pageState: onPage === 0 ? 'none' : onPage === page.length ? 'all' : 'some',
    toggle: (a: Alert) =>
      setSel((s) => {
        const ids = idsOf(s);
        if (ids.has(a.id)) ids.delete(a.id);
        else ids.set(a.id, a.state);
        return { all: false, ids };
      }),
    /** Selects the page when none of it is selected, otherwise deselects the selected ones on it. */
    togglePage: () =>
      setSel((s) => {
        const ids = idsOf(s);
        const any = page.some((a) => ids.has(a.id));
        for (const a of page) {
          if (any) ids.delete(a.id);
          else ids.set(a.id, a.state);
        }
        return { all: false, ids };
      }),
    selectAll: () => setSel({ all: true }),
    clear,
  };
}

export type AlertSelection = ReturnType<typeof useAlertSelection>;
