import type { Expr, Filter } from './ast';

/**
 * Canonical text of expressions and filters (reference query §3.7): column names are the
 * expression text (`p50($d)`, `$cpu{mode=idle}`, `$hits + $misses`); series names decorate each
 * metric occurrence with its filters and the series attributes.
 */
export function printExpr(e: Expr, decorate?: (series: Extract<Expr, { kind: 'series' }>) => string): string {
  switch (e.kind) {
    case 'number':
      return e.text;
    case 'ref':
      return e.name;
    case 'series':
      return decorate
        ? decorate(e)
        : `$${e.alias}${e.filters.length ? `{${e.filters.map(printFilter).join(',')}}` : ''}`;
    case 'paren':
      return `(${printExpr(e.expr, decorate)})`;
    case 'binary':
      return `${printExpr(e.left, decorate)} ${e.op} ${printExpr(e.right, decorate)}`;
    case 'call': {
      const args = e.args.map((a) => printExpr(a, decorate));
      if (e.attrs.length) args.push(...e.attrs);
      return `${e.func}(${args.join(', ')})`;
    }
  }
}

export function printFilter(f: Filter): string {
  const v = (s: string) => (/^[A-Za-z0-9_.-]+$/.test(s) ? s : JSON.stringify(s));
  const attr = f.alias ? `$${f.alias}.${f.attr}` : f.attr;
  switch (f.op) {
    case 'exists':
    case 'not exists':
      return `${attr} ${f.op}`;
    case 'in':
    case 'not in':
      return `${attr} ${f.op} (${f.values.map(v).join(', ')})`;
    case 'like':
    case 'not like':
      return `${attr} ${f.op} ${v(f.values[0])}`;
    default:
      return `${attr}${f.op}${v(f.values[0])}`;
  }
}
