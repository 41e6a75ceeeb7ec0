import type { AggFunc, Name } from './ast';

/**
 * Built-in span fields (reference query §1.4), written `.x` or `span.x`. `aggregate` fields are
 * computed per group (`.count`, `.error_rate`, ...) and so filter in HAVING.
 */
export interface BuiltinField {
  numeric: boolean;
  aggregate: boolean;
  unit: '' | 'nanoseconds' | 'utilization';
}

export const BUILTIN_FIELDS: Record<string, BuiltinField> = {
  '.system': { numeric: false, aggregate: false, unit: '' },
  '.group_id': { numeric: true, aggregate: false, unit: '' },
  '.id': { numeric: true, aggregate: false, unit: '' },
  '.parent_id': { numeric: true, aggregate: false, unit: '' },
  '.trace_id': { numeric: false, aggregate: false, unit: '' },
  '.type': { numeric: false, aggregate: false, unit: '' },
  '.name': { numeric: false, aggregate: false, unit: '' },
  '.event_name': { numeric: false, aggregate: false, unit: '' },
  '.display_name': { numeric: false, aggregate: false, unit: '' },
  '.kind': { numeric: false, aggregate: false, unit: '' },
  '.status_code': { numeric: false, aggregate: false, unit: '' },
  '.status_message': { numeric: false, aggregate: false, unit: '' },
  '.time': { numeric: false, aggregate: false, unit: '' },
  '.duration': { numeric: true, aggregate: false, unit: 'nanoseconds' },
  '.link_count': { numeric: true, aggregate: false, unit: '' },
  '.event_count': { numeric: true, aggregate: false, unit: '' },
  '.event_error_count': { numeric: true, aggregate: false, unit: '' },
  '.event_log_count': { numeric: true, aggregate: false, unit: '' },
  '.is_event': { numeric: true, aggregate: false, unit: '' },
  '.count': { numeric: true, aggregate: true, unit: '' },
  '.count_per_min': { numeric: true, aggregate: true, unit: '' },
  '.error_count': { numeric: true, aggregate: true, unit: '' },
  '.error_rate': { numeric: true, aggregate: true, unit: 'utilization' },
  '.error_pct': { numeric: true, aggregate: true, unit: 'utilization' },
};

/** Builtins whose values are 64-bit integers (compared exactly, never as floats). */
export const UINT64_FIELDS = new Set(['.group_id', '.id', '.parent_id']);

const NUMERIC_FUNCS = new Set<AggFunc>([
  'count',
  'per_min',
  'sum',
  'avg',
  'min',
  'max',
  'p50',
  'p75',
  'p90',
  'p95',
  'p99',
  'uniq',
]);
const UNIT_KEEPING_FUNCS = new Set<AggFunc>([
  'sum',
  'avg',
  'min',
  'max',
  'any',
  'anyLast',
  'p50',
  'p75',
  'p90',
  'p95',
  'p99',
]);

export const isBuiltin = (attr: string) => attr.startsWith('.');

/** True for a function call or an aggregate builtin: such a name filters in HAVING. */
export function isAggregate(name: Name): boolean {
  return name.func !== null || BUILTIN_FIELDS[name.attr]?.aggregate === true;
}

export function isNumeric(name: Name): boolean {
  if (name.func) return NUMERIC_FUNCS.has(name.func);
  return BUILTIN_FIELDS[name.attr]?.numeric === true;
}

export function unitOf(name: Name): string {
  if (name.func === 'per_min') return '';
  if (name.func && !UNIT_KEEPING_FUNCS.has(name.func)) return '';
  return BUILTIN_FIELDS[name.attr]?.unit ?? '';
}
