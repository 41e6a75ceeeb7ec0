/**
 * Caps shared by the tracing and metrics query engines. A filter term is a condition the engine
 * tests on every row read, a group by attribute a key of its GROUP BY: a few hundred of either made
 * a single request run for seconds (terms) or half a minute (keys).
 */
export const MAX_FILTER_TERMS = 100;
export const MAX_GROUP_BY_ATTRS = 20;

export const tooManyFilters = (n: number) => `too many filters: ${n} (at most ${MAX_FILTER_TERMS})`;
export const tooManyGroupByAttrs = (n: number) => `too many group by attributes: ${n} (at most ${MAX_GROUP_BY_ATTRS})`;
