import type { Span } from '@lantern/shared';

/**
 * Flattens a trace's span tree into the rows the tree table draws, depth-first in the server's
 * order, skipping the descendants of collapsed spans. Pure: the collapsed set is the only state.
 */
export interface SpanTreeRow {
  span: Span;
  level: number;
  hasChildren: boolean;
  collapsed: boolean;
}

export function spanTreeRows(root: Span, collapsed: ReadonlySet<string>): SpanTreeRow[] {
  const rows: SpanTreeRow[] = [];
  // An explicit stack: traces can be thousands of spans deep in pathological cases.
  const stack: { span: Span; level: number }[] = [{ span: root, level: 0 }];
  while (stack.length > 0) {
    const { span, level } = stack.pop()!;
    const children = span.children ?? [];
    const isCollapsed = collapsed.has(span.id);
    rows.push({ span, level, hasChildren: children.length > 0, collapsed: isCollapsed });
    if (isCollapsed) continue;
    for (let i = children.length - 1; i >= 0; i--) stack.push({ span: children[i], level: level + 1 });
  }
  return rows;
}
