/**
 * The rules for metric aliases (spec platform §5): lower-case letters, digits and `_` only, in any
 * order (the pickers lower-case what is typed); not empty; unique among the metrics of one query.
 * The reference also wanted a letter first (`^[a-z][a-z0-9_]*$`); the spec does not, and the query
 * language reads `$1x` and `$_x` as metrics all the same (a `$` word goes on with letters, digits,
 * `_` and `.`). The server refuses a query that breaks these rules, and the web's pickers say why
 * before sending; each side words its own message from the problem found here.
 */
export const METRIC_ALIAS_RE = /^[a-z0-9_]+$/;

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
