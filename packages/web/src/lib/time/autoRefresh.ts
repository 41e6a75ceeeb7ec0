/**
 * Auto-refresh intervals (issue 41, as Grafana's refresh picker): the address keeps the choice as
 * `refresh=30s`; anything else in that param reads as off.
 */
export interface RefreshOption {
  /** The address value. */
  value: string;
  ms: number;
  text: string;
}

export const REFRESH_OPTIONS: RefreshOption[] = [
  { value: '10s', ms: 10_000, text: '10 s' },
  { value: '30s', ms: 30_000, text: '30 s' },
  { value: '1m', ms: 60_000, text: '1 m' },
  { value: '5m', ms: 300_000, text: '5 m' },
];

/** The option an address value names, or undefined (off). */
export function refreshOption(value: string | null | undefined): RefreshOption | undefined {
  return REFRESH_OPTIONS.find((o) => o.value === value);
}

/**
 * Whether a tick refreshes now: never while the tab is hidden; on coming back, at once when an
 * interval or more went by unseen (so the user never looks at data older than the interval).
 */
export function isRefreshDue(visible: boolean, lastRefresh: number, now: number, ms: number): boolean {
  return visible && now - lastRefresh >= ms;
}
