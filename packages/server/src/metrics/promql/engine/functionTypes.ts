// Signatures of the PromQL functions the engine knows, as in Prometheus's parser/functions.go:
// argument types, how many trailing arguments may be left out or repeated, and the return type.
import type { ValueType } from './ast';

export interface FunctionType {
  args: ValueType[];
  /** 0: exactly args; n > 0: the last argument may be left out or repeated up to n times in all; -1: repeated any number of times. */
  variadic: number;
  returns: ValueType;
}

const v: ValueType = 'vector';
const m: ValueType = 'matrix';
const s: ValueType = 'scalar';
const str: ValueType = 'string';

const fn = (args: ValueType[], returns: ValueType = 'vector', variadic = 0): FunctionType => ({
  args,
  variadic,
  returns,
});

const VECTOR_MATH = [
  'abs',
  'ceil',
  'floor',
  'exp',
  'ln',
  'log2',
  'log10',
  'sqrt',
  'sgn',
  'acos',
  'acosh',
  'asin',
  'asinh',
  'atan',
  'atanh',
  'cos',
  'cosh',
  'sin',
  'sinh',
  'tan',
  'tanh',
  'deg',
  'rad',
  'timestamp',
];
const RANGE_TO_VECTOR = [
  'rate',
  'irate',
  'increase',
  'delta',
  'idelta',
  'deriv',
  'changes',
  'resets',
  'absent_over_time',
  'avg_over_time',
  'min_over_time',
  'max_over_time',
  'sum_over_time',
  'count_over_time',
  'last_over_time',
  'first_over_time',
  'present_over_time',
  'stddev_over_time',
  'stdvar_over_time',
  'mad_over_time',
  'ts_of_first_over_time',
  'ts_of_last_over_time',
  'ts_of_min_over_time',
  'ts_of_max_over_time',
];
const DATE = ['day_of_month', 'day_of_week', 'day_of_year', 'days_in_month', 'hour', 'minute', 'month', 'year'];

export const FUNCTIONS: Record<string, FunctionType> = {
  ...Object.fromEntries(VECTOR_MATH.map((name) => [name, fn([v])])),
  ...Object.fromEntries(RANGE_TO_VECTOR.map((name) => [name, fn([m])])),
  ...Object.fromEntries(DATE.map((name) => [name, fn([v], 'vector', 1)])),
  absent: fn([v]),
  clamp: fn([v, s, s]),
  clamp_max: fn([v, s]),
  clamp_min: fn([v, s]),
  round: fn([v, s], 'vector', 1),
  scalar: fn([v], 'scalar'),
  vector: fn([s]),
  time: fn([], 'scalar'),
  pi: fn([], 'scalar'),
  sort: fn([v]),
  sort_desc: fn([v]),
  sort_by_label: fn([v, str], 'vector', -1),
  sort_by_label_desc: fn([v, str], 'vector', -1),
  label_replace: fn([v, str, str, str, str]),
  label_join: fn([v, str, str, str], 'vector', -1),
  histogram_quantile: fn([s, v]),
  histogram_fraction: fn([s, s, v]),
  predict_linear: fn([m, s]),
  quantile_over_time: fn([s, m]),
};
