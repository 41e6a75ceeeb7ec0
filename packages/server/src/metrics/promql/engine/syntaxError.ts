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
