import { metricAliasProblem, type MetricAlias } from '@lantern/shared';
import { ALIAS_MESSAGES } from '../../../query/queryEdit';

/**
 * The metrics picker's rules (spec §5, platform §5): 1 to 6 metrics, valid and distinct aliases.
 * An alias problem is worded as the picker words it under the alias field, so that one form never
 * shows two messages about the same alias that contradict each other.
 */
export function metricsError(metrics: MetricAlias[], max = 6): string | undefined {
  if (metrics.length === 0) return 'Select at least one metric';
  if (metrics.length > max) return `At most ${max} metrics`;
  const problem = metricAliasProblem(metrics.map((m) => m.alias));
  return problem && ALIAS_MESSAGES[problem.kind];
}

export const required = (v: string, label: string) => (v.trim() ? undefined : `${label} is required`);
