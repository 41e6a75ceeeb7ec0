import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useAddressState } from '../../lib/url/useAddressState';
import {
  DEFAULT_DURATION,
  NOW_REFRESH_MS,
  around,
  changeDuration as changeDurationOf,
  fromAddress,
  hasNext,
  hasPrev,
  limitRange,
  nextPeriod,
  nowRange,
  prevPeriod,
  toAddressPatch,
  toApiParams,
  type DateRange,
} from '../../lib/time/dateRange';

/**
 * Date range state for the pickers. `useDateRange` is the app-wide range (one for the whole app,
 * like the reference product), synced to the address as time_gte/time_dur (a live range as
 * time_dur alone, so its links stay relative): a link without time params keeps the current range
 * and writes it back. `useLocalDateRange` is a page's own range
 * around a fixed time (trace, span pages).
 */
export interface DateRangeState {
  range: DateRange;
  /** time_gte / time_lt (ISO) for API calls. */
  apiParams: { time_gte: string; time_lt: string };
  maxDays?: number;
  change: (r: DateRange) => void;
  changeDuration: (ms: number) => void;
  prev: () => void;
  next: () => void;
  hasPrev: boolean;
  hasNext: boolean;
  /** Refetch everything on screen (and move the end to now in 'now' mode). */
  reload: () => void;
  /** Back to 'now' mode with the same duration. */
  reloadNow: () => void;
}

const app = {
  range: nowRange(DEFAULT_DURATION, Date.now()),
  listeners: new Set<() => void>(),
};
function setAppRange(r: DateRange) {
  app.range = r;
  for (const l of app.listeners) l();
}
const subscribe = (l: () => void) => {
  app.listeners.add(l);
  return () => app.listeners.delete(l);
};

const sameRange = (a: DateRange, b: DateRange) =>
  a.isNow === b.isNow && a.duration === b.duration && (a.isNow || a.lt === b.lt);

function useControls(range: DateRange, set: (r: DateRange) => void, maxDays?: number): DateRangeState {
  const queryClient = useQueryClient();
  const apply = useCallback((r: DateRange) => set(limitRange(r, maxDays)), [set, maxDays]);
  const now = Date.now();
  return useMemo(
    () => ({
      range,
      apiParams: toApiParams(range),
      maxDays,
      change: apply,
      changeDuration: (ms: number) => apply(changeDurationOf(range, ms, Date.now())),
      prev: () => apply(prevPeriod(range)),
      next: () => apply(nextPeriod(range, Date.now())),
      hasPrev: hasPrev(range, now),
      hasNext: hasNext(range, now),
      reload: () => {
        if (range.isNow) apply(nowRange(range.duration, Date.now()));
        void queryClient.invalidateQueries({ type: 'active' });
      },
      reloadNow: () => {
        apply(nowRange(range.duration, Date.now()));
        void queryClient.invalidateQueries({ type: 'active' });
      },
    }),
    // `now` only feeds the arrow rules; re-evaluated on every render of the range anyway.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [range, apply, maxDays, queryClient],
  );
}

/** The app-wide range as it stands, for one-off requests off a page (the top-bar search). */
export const currentAppRange = (): DateRange =>
  app.range.isNow ? nowRange(app.range.duration, Date.now()) : app.range;

/**
 * The API range that `useDateRange({ maxDays })` settles on for this address, for requests started
 * before the page renders (prefetches).
 */
export function settledApiRange(search: URLSearchParams, maxDays?: number): { time_gte: string; time_lt: string } {
  const fromUrl = fromAddress({ time_gte: search.get('time_gte'), time_dur: search.get('time_dur') }, Date.now());
  return toApiParams(limitRange(fromUrl ?? currentAppRange(), maxDays));
}

/** The app-wide range, synced to the address bar. */
export function useDateRange(opts: { maxDays?: number } = {}): DateRangeState {
  const stored = useSyncExternalStore(subscribe, () => app.range);
  const address = useAddressState();
  const gte = address.params.get('time_gte');
  const dur = address.params.get('time_dur');
  // The range the address names, already on the render that opens it: the store follows in the
  // effect below, and a page rendered with the previous range would start its calls for that range
  // only to abort them a moment later (the server runs them all the same).
  const named = useMemo(() => {
    const fromUrl = fromAddress({ time_gte: gte, time_dur: dur }, Date.now());
    return fromUrl && limitRange(fromUrl, opts.maxDays);
  }, [gte, dur, opts.maxDays]);
  const range = named && !sameRange(named, stored) ? named : stored;

  // The address wins when it names a range; otherwise the current range is written into it.
  useEffect(() => {
    if (named) {
      if (!sameRange(named, app.range)) setAppRange(named);
      // A live range is kept as its duration alone (a start from an older link goes).
      if (named.duration !== Number(dur) * 1000 || (named.isNow && gte !== null))
        address.set(toAddressPatch(named), { replace: true });
    } else {
      const current = app.range.isNow ? nowRange(app.range.duration, Date.now()) : app.range;
      const limited = limitRange(current, opts.maxDays);
      setAppRange(limited);
      address.set(toAddressPatch(limited), { replace: true });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [named]);

  // 'now' mode follows the clock (its address, the duration alone, stays as it is).
  useEffect(() => {
    if (!range.isNow) return;
    const timer = setInterval(() => setAppRange(nowRange(app.range.duration, Date.now())), NOW_REFRESH_MS);
    return () => clearInterval(timer);
  }, [range.isNow]);

  const set = useCallback(
    (r: DateRange) => {
      setAppRange(r);
      address.set(toAddressPatch(r));
    },
    [address],
  );
  return useControls(range, set, opts.maxDays);
}

/** A page's own range: `duration` around `anchor` (ms), re-centred when the anchor changes. */
export function useLocalDateRange(
  anchor: number | undefined,
  opts: { maxDays?: number; duration?: number } = {},
): DateRangeState {
  const duration = opts.duration ?? DEFAULT_DURATION;
  const [range, setRange] = useState<DateRange>(() =>
    anchor === undefined ? nowRange(duration, Date.now()) : around(anchor, duration, Date.now()),
  );
  // Re-centred while rendering when the anchor moves, so no request goes out for the old range.
  const [centredOn, setCentredOn] = useState(anchor);
  if (centredOn !== anchor) {
    setCentredOn(anchor);
    if (anchor !== undefined) setRange((r) => around(anchor, r.duration, Date.now()));
  }
  const state = useControls(range, setRange, opts.maxDays);
  return useMemo(
    () =>
      anchor === undefined
        ? state
        : { ...state, changeDuration: (ms: number) => setRange(around(anchor, ms, Date.now())) },
    [state, anchor],
  );
}
