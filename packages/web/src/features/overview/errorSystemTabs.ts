import { ERROR_SYSTEMS, type SystemStats, formatNum } from '@lantern/shared';

/** The longest date range that still shows the error-system tabs (reference frontend, Overview tabs). */
export const ERROR_TABS_MAX_RANGE_MS = 3 * 24 * 3600_000;

/**
 * The Overview's error-system tabs: one per error log system (log:error, log:fatal, log:panic)
 * present in the range, labelled with its count ("log:error (3)"), in the systems answer's order.
 * Only for ranges of 3 days or less: over longer ones the tabs are left out.
 */
export function errorSystemTabs(
  systems: readonly Pick<SystemStats, 'system' | 'count'>[],
  rangeMs: number,
): { system: string; label: string }[] {
  if (rangeMs > ERROR_TABS_MAX_RANGE_MS) return [];
  return systems
    .filter((s) => (ERROR_SYSTEMS as readonly string[]).includes(s.system) && s.count > 0)
    .map((s) => ({ system: s.system, label: `${s.system} (${formatNum(s.count)})` }));
}
