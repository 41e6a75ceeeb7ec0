import type { Span } from '@lantern/shared';
import { PALETTE } from '../../../components/charts/palette';

/**
 * The trace timeline's pure parts (reference frontend §4): system colours by self time (top 6,
 * the rest merged into 'other'; every span counts under its own system, `funcs` included, where the
 * reference folded bare `funcs` spans into their parent's system and so hid them from the bar), bar geometry, descendant overlay bars (consumer subtrees skipped),
 * and label placement. The tree rows themselves come from spanTreeRows.
 */
export const TOP_SYSTEMS = 6;
export const OTHER_COLOR = PALETTE[PALETTE.length - 1];

export interface SystemShare {
  name: string;
  /** Sum of self time, ns. */
  duration: number;
  color: string;
}

export interface ColoredTrace {
  systems: SystemShare[];
  colorOf: Map<string, string>;
}

function walk(root: Span, visit: (span: Span) => void) {
  const stack: Span[] = [root];
  while (stack.length) {
    const span = stack.pop()!;
    visit(span);
    stack.push(...(span.children ?? []));
  }
}

export function colorTrace(root: Span): ColoredTrace {
  const totals = new Map<string, number>();
  const names = new Map<string, string>();
  walk(root, (span) => {
    const name = span.system;
    names.set(span.id, name);
    totals.set(name, (totals.get(name) ?? 0) + Math.max(0, span.durationSelf));
  });
  const ranked = [...totals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const kept = ranked.slice(0, TOP_SYSTEMS).map(([name, duration], i) => ({ name, duration, color: PALETTE[i] }));
  const other = ranked.slice(TOP_SYSTEMS).reduce((sum, [, d]) => sum + d, 0);
  const systems = other > 0 ? [...kept, { name: 'other', duration: other, color: OTHER_COLOR }] : kept;
  const colorByName = new Map(kept.map((s) => [s.name, s.color]));
  const colorOf = new Map<string, string>();
  for (const [id, name] of names) colorOf.set(id, colorByName.get(name) ?? OTHER_COLOR);
  return { systems, colorOf };
}

/** Left offset and width of a bar inside its timeline cell, as CSS values; tiny bars get 1px. */
export function barStyle(startPct: number, endPct: number): { left: string; width: string } {
  const width = Math.max(0, endPct - startPct);
  return { left: `${(startPct * 100).toFixed(3)}%`, width: width < 0.001 ? '1px' : `${(width * 100).toFixed(3)}%` };
}

export interface Bar {
  id: string;
  startPct: number;
  endPct: number;
  color: string;
}

/**
 * Every descendant's bar, clipped to the span's own range, drawn in the span's row: a mini flame
 * view of a collapsed subtree. Consumer-kind children are skipped with their subtrees (their work
 * runs after the producer returns, so it would paint the whole row).
 */
export function descendantBars(span: Span, colorOf: (id: string) => string): Bar[] {
  const bars: Bar[] = [];
  const stack = [...(span.children ?? [])];
  while (stack.length) {
    const child = stack.pop()!;
    if (child.kind === 'consumer') continue;
    const startPct = Math.max(child.startPct, span.startPct);
    const endPct = Math.min(child.endPct, span.endPct);
    if (endPct >= startPct) bars.push({ id: child.id, startPct, endPct, color: colorOf(child.id) });
    stack.push(...(child.children ?? []));
  }
  return bars;
}

/**
 * Merges bars of one colour that touch or overlap at the given resolution (1/1000 of the trace by
 * default): a 10,000-span subtree collapses to a few dozen segments, which is all the eye can see.
 */
export function mergeBars(bars: Bar[], resolution = 0.001): Bar[] {
  const byColor = new Map<string, Bar[]>();
  for (const b of bars) {
    if (!byColor.has(b.color)) byColor.set(b.color, []);
    byColor.get(b.color)!.push(b);
  }
  const out: Bar[] = [];
  for (const list of byColor.values()) {
    list.sort((a, b) => a.startPct - b.startPct);
    let cur: Bar | undefined;
    for (const b of list) {
      if (cur && b.startPct <= cur.endPct + resolution) cur.endPct = Math.max(cur.endPct, b.endPct);
      else {
        if (cur) out.push(cur);
        cur = { ...b };
      }
    }
    if (cur) out.push(cur);
  }
  return out;
}

/**
 * mergeBars(descendantBars(span)) for every span of the tree, built bottom-up: a span's bars are its
 * children's own bars and their (already merged) bars, merged again, then clipped to the span. Each
 * span then costs the few segments its children carry instead of a walk of its whole subtree, which
 * on a deep 10,000-span trace is the difference between a smooth and a stuttering scroll. Iterative,
 * for traces thousands of levels deep.
 */
export function mergedDescendantBars(
  root: Span,
  colorOf: (id: string) => string,
  resolution = 0.001,
): Map<string, Bar[]> {
  const out = new Map<string, Bar[]>();
  const order: Span[] = [];
  const stack = [root];
  while (stack.length) {
    const span = stack.pop()!;
    order.push(span);
    for (const child of span.children ?? []) stack.push(child);
  }
  // Children come after their parent in `order`: walking it backwards finishes them first. `below`
  // holds each span's descendants merged but not clipped (an ancestor clips them to its own range).
  const below = new Map<string, Bar[]>();
  for (let i = order.length - 1; i >= 0; i--) {
    const span = order[i];
    const bars: Bar[] = [];
    for (const child of span.children ?? []) {
      if (child.kind === 'consumer') continue;
      bars.push(
        { id: child.id, startPct: child.startPct, endPct: child.endPct, color: colorOf(child.id) },
        ...below.get(child.id)!,
      );
    }
    const merged = mergeBars(bars, resolution);
    below.set(span.id, merged);
    const clipped: Bar[] = [];
    for (const b of merged) {
      const startPct = Math.max(b.startPct, span.startPct);
      const endPct = Math.min(b.endPct, span.endPct);
      if (endPct >= startPct) clipped.push({ ...b, startPct, endPct });
    }
    out.set(span.id, clipped);
  }
  return out;
}

/** Labels sit left-aligned at the bar start in the left half, right-aligned at its end otherwise. */
export function labelPosition(startPct: number, endPct: number): { left?: string; right?: string } {
  return startPct <= 0.5
    ? { left: `${(startPct * 100).toFixed(3)}%` }
    : { right: `${((1 - endPct) * 100).toFixed(3)}%` };
}

/** Events grouped by their system, for the per-kind tabs of the trace page. */
export function eventsBySystem(root: Span): Map<string, { span: Span; event: NonNullable<Span['events']>[number] }[]> {
  const out = new Map<string, { span: Span; event: NonNullable<Span['events']>[number] }[]>();
  walk(root, (span) => {
    for (const event of span.events ?? []) {
      const system = event.system ?? 'events';
      if (!out.has(system)) out.set(system, []);
      out.get(system)!.push({ span, event });
    }
  });
  for (const list of out.values()) list.sort((a, b) => a.event.time.localeCompare(b.event.time));
  return out;
}

/** Ids of the spans on the path from the root to `id` (excluding it), to reveal a selected span. */
export function ancestorIds(root: Span, id: string): string[] {
  const path: string[] = [];
  const find = (span: Span): boolean => {
    if (span.id === id) return true;
    for (const child of span.children ?? []) {
      if (find(child)) {
        path.push(span.id);
        return true;
      }
    }
    return false;
  };
  find(root);
  return path.reverse();
}

/** The span with this id in the tree, if any. */
export function findSpan(root: Span, id: string): Span | undefined {
  let found: Span | undefined;
  walk(root, (span) => {
    if (span.id === id) found = span;
  });
  return found;
}
