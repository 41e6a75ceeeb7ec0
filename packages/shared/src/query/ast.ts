/** The tracing query language's parsed form (reference query §1): names, filters, parts. */

/** Aggregations over one attribute. `count` takes no argument; `per_min` takes an aggregate. */
export const AGG_FUNCS = [
  'count',
  'per_min',
  'sum',
  'avg',
  'min',
  'max',
  'uniq',
  'any',
  'anyLast',
  'top3',
  'top10',
  'p50',
  'p75',
  'p90',
  'p95',
  'p99',
] as const;
export type AggFunc = (typeof AGG_FUNCS)[number];

export interface Name {
  /** Aggregate function, or null for a plain attribute. */
  func: AggFunc | null;
  /** Attribute key, canonical (`span.x` -> `.x`); '' for `count()` and for `per_min(<func>)`. */
  attr: string;
  /** The aggregate inside `per_min(...)` when it is a function call, e.g. `per_min(count())`. */
  inner?: Name;
  /** Canonical text: `attr` or `func(attr)`. */
  text: string;
  start: number;
  end: number;
}

export interface Column {
  name: Name;
  alias?: string;
  start: number;
  end: number;
}

export type FilterOp =
  | '='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | 'like'
  | 'not like'
  | 'contains'
  | 'not contains'
  | 'exists'
  | 'not exists'
  | 'in'
  | 'not in';

export interface Literal {
  kind: 'string' | 'number' | 'duration';
  /** Unquoted text (for durations and numbers: as written). */
  value: string;
  /** Numbers: the value; durations: nanoseconds. */
  num?: number;
}

export interface Filter {
  /** How this filter joins the previous one in its part (null for the first). */
  connector: 'and' | 'or' | null;
  lhs: Name;
  op: FilterOp;
  /** One literal for comparison ops, several for `in`, none for `exists`. */
  values: Literal[];
  start: number;
  end: number;
}

export type PartAst =
  { kind: 'where'; filters: Filter[] } | { kind: 'group'; names: Name[] } | { kind: 'select'; columns: Column[] };

export interface Diagnostic {
  message: string;
  start: number;
  end: number;
}

export interface ParsedPart {
  /** Trimmed text of the part. */
  text: string;
  start: number;
  end: number;
  ast?: PartAst;
  error?: Diagnostic;
}
