import type { SystemStats } from '@lantern/shared';
import { formatCount } from '../../lib/format/number';

/** Log systems whose rows are errors by severity (reference frontend, Overview tabs). */
const ERROR_SYSTEM = /^log:(error|fatal|panic)$/;

/**
 * The Overview's error-system tabs: one per error log system present in the range, labelled with
 * its count ("log:error (3)"), in the systems answer's order.
 */
export function errorSystemTabs(
  systems: readonly Pick<SystemStats, 'system' | 'count'>[],
): { system: string; label: string }[] {
  return systems
    .filter((s) => ERROR_SYSTEM.test(s.system) && s.count > 0)
    .map((s) => ({ system: s.system, label: `${s.system} (${formatCount(s.count)})` }));
}
