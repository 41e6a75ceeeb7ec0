/**
 * The rules for metric aliases (reference alerting-dashboards §4.3, spec platform §5): a letter,
 * then letters, digits or `_`; not empty; unique among the metrics of one query. The server refuses
 * a query that breaks them, and the web's pickers say why before sending; each side words its own
 * message from the problem found here.
 */
export const METRIC_ALIAS_RE = /^[a-z][a-z0-9_]*$/;

export type MetricAliasProblem =
  { kind: 'empty'; alias: '' } | { kind: 'invalid'; alias: string } | { kind: 'duplicate'; alias: string };

export function isMetricAlias(alias: string): boolean {
  return METRIC_ALIAS_RE.test(alias);
}

/** The first problem of a list of aliases (without `$`), checked in the order empty, invalid, duplicate. */
export function metricAliasProblem(aliases: readonly string[]): MetricAliasProblem | undefined {
  if (aliases.some((a) => a === '')) return { kind: 'empty', alias: '' };
  const invalid = aliases.find((a) => !isMetricAlias(a));
  if (invalid !== undefined) return { kind: 'invalid', alias: invalid };
  const duplicate = aliases.find((a, i) => aliases.indexOf(a) !== i);
  if (duplicate !== undefined) return { kind: 'duplicate', alias: duplicate };
  return undefined;
}
