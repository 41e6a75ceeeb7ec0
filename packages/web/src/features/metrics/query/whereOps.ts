import { quoteQueryValue } from './queryEdit';

/**
 * The Where dialog's operators over metric attributes. Spec §5 lists the spans builder's set
 * (contains, not contains, like, not like, =, !=, <, <=, >, >=, exists, not exists); the metrics
 * builder offers those the metrics language and the server's engine really run
 * (`compileFilter`): all but contains / not contains, which the metrics language has no word for.
 * It keeps the regular-expression match of the metrics language as well. `<`, `<=`, `>`, `>=`
 * compare the attribute as a number, so they take a number only.
 */
export const WHERE_OPS = [
  '=',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  'like',
  'not like',
  '~',
  '!~',
  'exists',
  'not exists',
] as const;
export type WhereOp = (typeof WHERE_OPS)[number];

const NUMERIC: readonly WhereOp[] = ['<', '<=', '>', '>='];

export const takesNoValue = (op: WhereOp) => op === 'exists' || op === 'not exists';

/** A short description shown beside an operator in the list, when the symbol alone does not say it. */
export function opLabel(op: WhereOp): string | undefined {
  if (op === '~') return 'matches regexp';
  if (op === '!~') return 'does not match regexp';
  if (NUMERIC.includes(op)) return 'number';
  return undefined;
}

/** The value field's hint for an operator (spec §5 like hint). */
export function valueHint(op: WhereOp): string | undefined {
  if (op === 'like' || op === 'not like') return '"%" matches zero or more characters';
  if (op === '~' || op === '!~') return 'A regular expression, e.g. ^web-[0-9]+$';
  if (NUMERIC.includes(op)) return 'Compared as a number';
  return undefined;
}

/** What is wrong with a value for an operator, or undefined when the filter can be added. */
export function valueProblem(op: WhereOp, value: string): string | undefined {
  if (takesNoValue(op)) return undefined;
  if (value === '') return 'Value is required';
  if (NUMERIC.includes(op) && (value.trim() === '' || !Number.isFinite(Number(value)))) return 'Enter a number';
  return undefined;
}

/** The `where` part the dialog adds. */
export function wherePart(key: string, op: WhereOp, value: string): string {
  if (takesNoValue(op)) return `where ${key} ${op}`;
  return `where ${key} ${op} ${quoteQueryValue(NUMERIC.includes(op) ? value.trim() : value)}`;
}
