export * from './ast';
export { parseMetricsQuery, splitParts } from './parser';
export { printExpr, printFilter } from './print';
export { parseMetricAlias, formatMetricAlias } from './metricAlias';
