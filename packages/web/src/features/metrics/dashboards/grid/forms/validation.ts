import { METRIC_ALIAS_RE, type MetricAlias } from '@lantern/shared';

/** The metrics picker's rules (spec §5, platform §5): 1 to 6 metrics, valid and distinct aliases. */
export function metricsError(metrics: MetricAlias[], max = 6): string | undefined {
  if (metrics.length === 0) return 'Select at least one metric';
  if (metrics.length > max) return `At most ${max} metrics`;
  const bad = metrics.find((m) => !METRIC_ALIAS_RE.test(m.alias));
  if (bad) return `Invalid alias "${bad.alias}": start with a letter, then letters, digits or _`;
  const aliases = metrics.map((m) => m.alias);
  const dup = aliases.find((a, i) => aliases.indexOf(a) !== i);
  if (dup) return `The alias "${dup}" is used twice`;
  return undefined;
}

export const required = (v: string, label: string) => (v.trim() ? undefined : `${label} is required`);
