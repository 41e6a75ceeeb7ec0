import { useCallback, useEffect, useLayoutEffect, useMemo, useSyncExternalStore } from 'react';
import { useLocation, useNavigate, type NavigateFunction } from 'react-router-dom';
import { applyPatch, shouldReplace, type AddressPatch } from './addressPatch';

/**
 * The one way view state that a user could share (time range, query, systems, sort, plotted
 * columns) reaches the address bar. Every widget on the page writes through it; writes made within
 * 100 ms merge into one history entry (spec §2, §9), and reads see pending writes at once, so the
 * screen never waits for the debounce.
 */
export const ADDRESS_DEBOUNCE_MS = 100;

const store = {
  pending: {} as AddressPatch,
  /** Written but not yet seen in the router's location (navigation is asynchronous): still read through. */
  inflight: {} as AddressPatch,
  listeners: new Set<() => void>(),
  timer: undefined as ReturnType<typeof setTimeout> | undefined,
  forceReplace: undefined as boolean | undefined,
  lastWrittenUrl: undefined as string | undefined,
  navigate: undefined as NavigateFunction | undefined,
  /** The router location (its key) whose rendering last cleared `inflight`. */
  seenLocation: undefined as string | undefined,
  /** The page the pending writes belong to: a write never follows the user to another page. */
  pathname: '',
  version: 0,
};

// Back / Forward: whatever was in flight belonged to the entry the user left, even when the router
// renders the entry it returns to before the write's own navigation was ever rendered.
if (typeof window !== 'undefined') {
  window.addEventListener('popstate', () => {
    store.inflight = {};
    emit();
  });
}

function emit() {
  store.version++;
  for (const l of store.listeners) l();
}

function flush() {
  store.timer = undefined;
  const patch = store.pending;
  const forced = store.forceReplace;
  store.pending = {};
  store.forceReplace = undefined;
  const { pathname, search } = window.location;
  if (pathname !== store.pathname) return emit();
  const next = applyPatch(search, patch);
  const current = `${pathname}${search}`;
  const target = `${pathname}${next ? `?${next}` : ''}`;
  if (target !== current && store.navigate) {
    const replace = shouldReplace(current, store.lastWrittenUrl, forced);
    store.lastWrittenUrl = target;
    store.inflight = { ...store.inflight, ...patch };
    // The router's promise settles once the route has rendered; the store does not wait for it.
    void store.navigate(target, { replace, preventScrollReset: true });
  }
  emit();
}

const subscribe = (l: () => void) => {
  store.listeners.add(l);
  return () => store.listeners.delete(l);
};

export interface AddressState {
  /** The address query with pending writes applied. */
  params: URLSearchParams;
  /** Merges `patch` into the address after the debounce; `replace` overrides the push/replace rule. */
  set: (patch: AddressPatch, opts?: { replace?: boolean }) => void;
}

export function useAddressState(): AddressState {
  const location = useLocation();
  const navigate = useNavigate();
  // Writes are flushed from a timer, after this effect has run.
  useLayoutEffect(() => {
    store.navigate = navigate;
  }, [navigate]);
  const version = useSyncExternalStore(subscribe, () => store.version);

  // Once the location changed, it holds what was in flight. Only a change: a component that
  // mounts while a write is still on its way (the router has not rendered it yet) must not drop
  // it, or every reader would fall back to the older address and ask for a stale range meanwhile.
  useEffect(() => {
    if (store.seenLocation === location.key) return;
    store.seenLocation = location.key;
    store.inflight = {};
  }, [location.key]);

  // The inflight object is a dependency: Back to an entry whose address equals an earlier render's
  // must not reuse params computed while a write from that entry was still in flight.
  const inflight = store.inflight;
  const params = useMemo(
    () => new URLSearchParams(applyPatch(applyPatch(location.search, inflight), store.pending)),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `version` stands for store.pending, which changes outside React
    [location.search, inflight, version],
  );

  const set = useCallback((patch: AddressPatch, opts?: { replace?: boolean }) => {
    if (store.pathname !== window.location.pathname) {
      store.pending = {};
      store.pathname = window.location.pathname;
    }
    Object.assign(store.pending, patch);
    if (opts?.replace !== undefined) store.forceReplace = store.forceReplace === false ? false : opts.replace;
    clearTimeout(store.timer);
    store.timer = setTimeout(flush, ADDRESS_DEBOUNCE_MS);
    emit();
  }, []);

  return useMemo(() => ({ params, set }), [params, set]);
}
