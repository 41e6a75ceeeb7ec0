import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { isRefreshDue, refreshOption, type RefreshOption } from '../../lib/time/autoRefresh';
import { useAddressState } from '../../lib/url/useAddressState';

export interface AutoRefreshState {
  /** The chosen interval, undefined when off. */
  option: RefreshOption | undefined;
  /** Writes `refresh=` to the address ('' turns it off). */
  set: (value: string) => void;
}

/**
 * Calls `onRefresh` every interval the address names (`refresh=30s`) while the tab is visible;
 * a tab that comes back after an interval or more refreshes at once. Each refresh also re-renders
 * the caller, so its "5 minutes ago" texts (read from Date.now() while rendering) move on too.
 */
export function useAutoRefresh(onRefresh: () => void): AutoRefreshState {
  const address = useAddressState();
  const option = refreshOption(address.params.get('refresh'));
  const ms = option?.ms;
  const [, setRefreshedAt] = useState(0);
  const latest = useRef(onRefresh);
  useLayoutEffect(() => {
    latest.current = onRefresh;
  });

  useEffect(() => {
    if (!ms) return;
    let last = Date.now();
    const refresh = () => {
      last = Date.now();
      setRefreshedAt(last);
      latest.current();
    };
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') refresh();
    }, ms);
    const onVisibility = () => {
      if (isRefreshDue(document.visibilityState === 'visible', last, Date.now(), ms)) refresh();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [ms]);

  return { option, set: (value) => address.set({ refresh: value || null }) };
}
