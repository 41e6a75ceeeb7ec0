import type { Span } from '@lantern/shared';
import { describe, expect, it } from 'vitest';
import { spanTreeRows } from '../spanTreeRows';
import { testSpan } from '../testSpan';
import { allCollapsed, BIG_TRACE_SPANS, countSpans, initialCollapsed, OPEN_LEVELS, searchSpans } from './traceTree';

const span = testSpan;

/** A chain of `depth` levels under each of `width` children of the root. */
function tree(width: number, depth: number): Span {
  const chain = (prefix: string, d: number): Span =>
    span(`${prefix}.${d}`, d + 1 < depth ? [chain(prefix, d + 1)] : []);
  return span(
    'root',
    Array.from({ length: width }, (_, i) => chain(`c${i}`, 0)),
  );
}

describe('initialCollapsed', () => {
  it('opens a small trace fully', () => {
    const root = tree(10, 5);
    expect(countSpans(root)).toBe(51);
    expect(initialCollapsed(root).size).toBe(0);
  });

  it(`opens a trace of more than ${BIG_TRACE_SPANS} spans collapsed below its first ${OPEN_LEVELS} levels`, () => {
    const root = tree(100, 6);
    expect(countSpans(root)).toBe(601);
    const rows = spanTreeRows(root, initialCollapsed(root));
    expect(Math.max(...rows.map((r) => r.level))).toBe(OPEN_LEVELS);
    expect(rows).toHaveLength(1 + 100 + 100);
    expect(rows.filter((r) => r.level === OPEN_LEVELS).every((r) => r.collapsed)).toBe(true);
  });
});

describe('allCollapsed', () => {
  it('leaves only the root row', () => {
    const root = tree(3, 4);
    expect(spanTreeRows(root, allCollapsed(root))).toHaveLength(1);
  });
});

describe('searchSpans', () => {
  const root = span(
    'root',
    [
      span('a', [span('deep', [], { attrs: { 'code.function': 'chargeCard', retries: 3 } })]),
      span('b', [], { displayName: 'SELECT * FROM carts' }),
    ],
    { name: 'GET /cart' },
  );

  it('finds spans by name or display name, ignoring case, in tree order', () => {
    expect(searchSpans(root, 'CART')).toEqual(['root', 'b']);
  });

  it('finds spans by an attribute value', () => {
    expect(searchSpans(root, 'chargecard')).toEqual(['deep']);
    expect(searchSpans(root, '3')).toEqual(['deep']);
  });

  it('finds nothing for blank text', () => {
    expect(searchSpans(root, '  ')).toEqual([]);
  });
});
