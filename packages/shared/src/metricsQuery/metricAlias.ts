import type { MetricAlias } from '../api/dashboards';
import { isMetricAlias } from '../metricAliasRules';

/**
 * `<metric name> as $<alias>`, the form metrics take in YAML and stored queries (reference
 * alerting-dashboards §4.3). Throws an Error with the reference's message on bad input.
 */
export function parseMetricAlias(s: string): MetricAlias {
  const m = /^\s*(\S+)\s+(?:as|AS)\s+(\S+)\s*$/.exec(s);
  if (!m) throw new Error(`can't parse metric alias ${JSON.stringify(s)}`);
  const [, name, alias] = m;
  if (!alias.startsWith('$')) throw new Error(`alias ${JSON.stringify(alias)} must start with a dollar sign`);
  if (!isMetricAlias(alias.slice(1))) throw new Error(`invalid alias: ${JSON.stringify(alias)}`);
  return { name, alias: alias.slice(1) };
}

export function formatMetricAlias(m: MetricAlias): string {
  return `${m.name} as $${m.alias}`;
}
