// The metrics query language (reference query §3): parser with diagnostics, printing, metric aliases.
// Names carry a Metric prefix where the tracing query language has its own of the same kind.
export type {
  Range as MetricRange,
  Filter as MetricFilter,
  FilterOp as MetricFilterOp,
  BinaryOp as MetricBinaryOp,
  Expr as MetricExpr,
  Grouping as MetricGrouping,
  GroupName as MetricGroupName,
  Part as MetricPart,
  Diagnostic as MetricDiagnostic,
  ParsedQuery as ParsedMetricsQuery,
} from './ast';
export { parseMetricsQuery, splitParts as splitMetricsQueryParts } from './parser';
export { printExpr, printFilter } from './print';
export { parseMetricAlias, formatMetricAlias } from './metricAlias';
export {
  ALL_VALUE,
  VARIABLE_NAME_RE,
  parseVariableParams,
  substituteVariables,
  variableParams,
  type VariableValues,
} from './variables';
export { substitutePromqlVariables } from './promqlVariables';
