import type { Span } from '@lantern/shared';
import { describe, expect, it } from 'vitest';
import { spanTreeRows } from './spanTreeRows';
import { testSpan } from './testSpan';

const span = (id: string, children?: Span[]) => testSpan(id, children);

const tree = span('root', [span('a', [span('a1'), span('a2')]), span('b')]);
const view = (rows: ReturnType<typeof spanTreeRows>) =>
  rows.map((r) => `${'-'.repeat(r.level)}${r.span.id}${r.collapsed ? '+' : ''}`);

describe('spanTreeRows', () => {
  it('lists every span depth-first with its level', () => {
    expect(view(spanTreeRows(tree, new Set()))).toEqual(['root', '-a', '--a1', '--a2', '-b']);
  });

  it('hides the descendants of a collapsed span', () => {
    expect(view(spanTreeRows(tree, new Set(['a'])))).toEqual(['root', '-a+', '-b']);
    expect(view(spanTreeRows(tree, new Set(['root'])))).toEqual(['root+']);
  });

  it('marks which rows can expand', () => {
    const rows = spanTreeRows(tree, new Set());
    expect(rows.filter((r) => r.hasChildren).map((r) => r.span.id)).toEqual(['root', 'a']);
  });
});
