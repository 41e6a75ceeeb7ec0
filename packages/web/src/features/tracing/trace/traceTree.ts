import { type Span, toText } from '@lantern/shared';

/**
 * The trace tree's open/closed state and its search, pure: which spans start collapsed, the set
 * 'collapse all' gives, and which spans a search text finds.
 */

/** Above this many spans a trace opens collapsed below its first levels. */
export const BIG_TRACE_SPANS = 500;
/** Levels (from the root, level 0) whose spans start expanded in a big trace. */
export const OPEN_LEVELS = 2;

function walk(root: Span, visit: (span: Span, level: number) => void): void {
  const stack: { span: Span; level: number }[] = [{ span: root, level: 0 }];
  while (stack.length > 0) {
    const { span, level } = stack.pop()!;
    visit(span, level);
    const children = span.children ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push({ span: children[i], level: level + 1 });
  }
}

export function countSpans(root: Span): number {
  let n = 0;
  walk(root, () => n++);
  return n;
}

/** Spans that have children, from `minLevel` down: collapsing them hides everything below. */
function parentsFrom(root: Span, minLevel: number): Set<string> {
  const ids = new Set<string>();
  walk(root, (span, level) => {
    if (level >= minLevel && (span.children?.length ?? 0) > 0) ids.add(span.id);
  });
  return ids;
}

/** A small trace opens fully expanded; a big one shows its first OPEN_LEVELS levels open, the next collapsed. */
export function initialCollapsed(root: Span): Set<string> {
  return countSpans(root) > BIG_TRACE_SPANS ? parentsFrom(root, OPEN_LEVELS) : new Set();
}

/** 'Collapse all': every span with children, so only the root row is left. */
export function allCollapsed(root: Span): Set<string> {
  return parentsFrom(root, 0);
}

function attrMatches(value: unknown, needle: string): boolean {
  if (value === null || value === undefined) return false;
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : toText(value);
  return text.toLowerCase().includes(needle);
}

/**
 * Ids of the spans, in tree order, whose name or any attribute value contains the text (ignoring
 * case); none for blank text.
 */
export function searchSpans(root: Span, text: string): string[] {
  const needle = text.trim().toLowerCase();
  if (needle === '') return [];
  const found: string[] = [];
  walk(root, (span) => {
    if (
      span.name.toLowerCase().includes(needle) ||
      span.displayName.toLowerCase().includes(needle) ||
      Object.values(span.attrs).some((v) => attrMatches(v, needle))
    ) {
      found.push(span.id);
    }
  });
  return found;
}
