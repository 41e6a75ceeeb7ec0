/**
 * The metrics query language AST (reference query §3.3). A query is `|`-separated parts; each part
 * is a selector (an expression, optionally `as name` and an inline `group by`), a `where` filter
 * list, or a `group by`. Every node carries its source range in the whole query text, so the
 * editor can underline what a diagnostic is about.
 */
export interface Range {
  start: number;
  end: number;
}

export type FilterOp =
  '=' | '!=' | '~' | '!~' | 'like' | 'not like' | 'in' | 'not in' | 'exists' | 'not exists' | '<' | '<=' | '>' | '>=';

export interface Filter {
  /** Metric alias the filter is scoped to (`$a.key`), without `$`; '' when it applies to every metric. */
  alias: string;
  attr: string;
  op: FilterOp;
  values: string[];
  range: Range;
}

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>=' | 'and' | 'or';

export type Expr =
  | { kind: 'number'; value: number; unit: 'none' | 'duration' | 'bytes'; text: string; range: Range }
  | { kind: 'series'; alias: string; filters: Filter[]; range: Range }
  | { kind: 'ref'; name: string; range: Range }
  | { kind: 'call'; func: string; args: Expr[]; attrs: string[]; range: Range }
  | { kind: 'binary'; op: BinaryOp; left: Expr; right: Expr; range: Range }
  | { kind: 'paren'; expr: Expr; range: Range };

export type Grouping = { all: true } | { all: false; names: GroupName[] };

export interface GroupName {
  /** Alias the grouping is scoped to (`group by $a.key`), '' for every metric. */
  alias: string;
  attr: string;
}

export type Part =
  | { kind: 'selector'; expr: Expr; alias: string; grouping: Grouping | null; text: string; range: Range }
  | { kind: 'where'; filters: Filter[]; conjunctions: ('and' | 'or')[]; text: string; range: Range }
  | { kind: 'grouping'; grouping: Grouping; text: string; range: Range }
  | { kind: 'error'; message: string; text: string; range: Range; errorRange: Range };

export interface Diagnostic {
  message: string;
  range: Range;
}

export interface ParsedQuery {
  parts: Part[];
  diagnostics: Diagnostic[];
}
