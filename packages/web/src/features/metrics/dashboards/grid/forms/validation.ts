import { metricAliasProblem, type MetricAlias } from '@lantern/shared';

/** The metrics picker's rules (spec §5, platform §5): 1 to 6 metrics, valid and distinct aliases. */
export function metricsError(metrics: MetricAlias[], max = 6): string | undefined {
  if (metrics.length === 0) return 'Select at least one metric';
  if (metrics.length > max) return `At most ${max} metrics`;
  const problem = metricAliasProblem(metrics.map((m) => m.alias));
  if (problem?.kind === 'duplicate') return `The alias "${problem.alias}" is used twice`;
  if (problem) return `Invalid alias "${problem.alias}": start with a letter, then letters, digits or _`;
  return undefined;
}

export const required = (v: string, label: string) => (v.trim() ? undefined : `${label} is required`);
