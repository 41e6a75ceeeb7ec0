// Syntax errors of the lezer tree (error nodes), worded as Prometheus's parser words them where we
// can tell: unknown functions, unexpected end of input, unexpected tokens.
import type { parser } from '@prometheus-io/lezer-promql';

type SyntaxNode = ReturnType<typeof parser.parse>['topNode'];

/** The first syntax error of the lezer tree, as Prometheus would word it where we can tell. */
export function firstSyntaxError(q: string, top: SyntaxNode): { offset: number; msg: string } | undefined {
  let found: { offset: number; msg: string } | undefined;
  top.cursor().iterate((node) => {
    if (found) return false;
    if (!node.type.isError) return true;
    const at = node.from;
    const before = q.slice(0, at);
    const ident = /([A-Za-z_:][A-Za-z0-9_:]*)\s*$/.exec(before);
    if (
      ident &&
      q.slice(at).trimStart().startsWith('(') &&
      !/(by|without|on|ignoring|group_left|group_right|bool)$/i.test(ident[1])
    ) {
      found = { offset: at - ident[0].length, msg: `unknown function with name ${JSON.stringify(ident[1])}` };
      return false;
    }
    const rest = q.slice(at).trimStart();
    if (rest.length === 0) {
      found = { offset: at, msg: 'unexpected end of input' };
    } else {
      const token = /^([A-Za-z_:][A-Za-z0-9_:]*|\d[\w.]*|"[^"]*"?|'[^']*'?|\S)/.exec(rest)![0];
      found = { offset: q.length - rest.length, msg: `unexpected ${JSON.stringify(token)}` };
    }
    return false;
  });
  return found;
}

/**
 * Prometheus accepts numbers with a trailing dot (`1./6.`), the lezer grammar does not: such a dot is
 * replaced by a space (same length, so error positions stay right). Strings and comments are left alone.
 */
export function normalizeTrailingDots(q: string): string {
  let out = '';
  let quote = '';
  for (let i = 0; i < q.length; i++) {
    const c = q[i];
    if (quote) {
      if (c === '\\' && quote !== '`') {
        out += c + (q[i + 1] ?? '');
        i++;
        continue;
      }
      if (c === quote) quote = '';
      out += c;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    if (c === '#') {
      const end = q.indexOf('\n', i);
      const stop = end === -1 ? q.length : end;
      out += q.slice(i, stop);
      i = stop - 1;
      continue;
    }
    if (c === '.' && /\d/.test(q[i - 1] ?? '') && !/[\dA-Za-z_]/.test(q[i + 1] ?? '')) {
      // Only a plain decimal number: the digits before the dot must not belong to a name or hex literal.
      const before = /[A-Za-z0-9_:.]*$/.exec(q.slice(0, i))![0];
      if (/^\d+$/.test(before)) {
        out += ' ';
        continue;
      }
    }
    out += c;
  }
  return out;
}
