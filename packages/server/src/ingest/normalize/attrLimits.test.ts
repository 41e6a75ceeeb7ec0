import { describe, expect, it } from 'vitest';
import type { AttrMap } from '../spanRow';
import {
  DROPPED_ATTRS_KEY,
  limitAttrs,
  MAX_ARRAY_ITEMS,
  MAX_ATTRS,
  MAX_VALUE_CHARS,
  TRUNCATED_ATTRS_KEY,
} from './attrLimits';
import { normalizeTraces } from './normalizeTraces';
import { otlpSpan, keyValues } from './spanFixture';

describe('limitAttrs', () => {
  it('leaves rows within the caps untouched', () => {
    const attrs: AttrMap = { a: 'x', b: 1, c: ['y'], d: { e: 'f' } };
    limitAttrs(attrs);
    expect(attrs).toEqual({ a: 'x', b: 1, c: ['y'], d: { e: 'f' } });
  });

  it('drops attributes past the count cap and records how many', () => {
    const attrs: AttrMap = Object.fromEntries(Array.from({ length: MAX_ATTRS + 10 }, (_, i) => [`k${i}`, i]));
    limitAttrs(attrs);
    expect(attrs.k0).toBe(0);
    expect(attrs[`k${MAX_ATTRS - 1}`]).toBe(MAX_ATTRS - 1);
    expect(attrs[`k${MAX_ATTRS}`]).toBeUndefined();
    expect(attrs[DROPPED_ATTRS_KEY]).toBe(10);
  });

  it('cuts long strings, long arrays and big maps, and records which', () => {
    const long = 'x'.repeat(MAX_VALUE_CHARS + 5);
    const attrs: AttrMap = {
      s: long,
      arr: Array.from({ length: MAX_ARRAY_ITEMS + 1 }, () => 'a'),
      arrLong: [long],
      map: { k: long },
      ok: 'fine',
    };
    limitAttrs(attrs);
    expect((attrs.s as string).length).toBe(MAX_VALUE_CHARS);
    expect((attrs.s as string).endsWith('...')).toBe(true);
    expect(attrs.arr).toHaveLength(MAX_ARRAY_ITEMS);
    expect((attrs.arrLong as string[])[0].length).toBe(MAX_VALUE_CHARS);
    expect(typeof attrs.map).toBe('string');
    expect(attrs[TRUNCATED_ATTRS_KEY]).toEqual(['s', 'arr', 'arrLong', 'map']);
  });

  it('never splits a surrogate pair', () => {
    const attrs: AttrMap = { s: 'a'.repeat(MAX_VALUE_CHARS - 4) + '😀'.repeat(10) };
    limitAttrs(attrs);
    expect(() => encodeURIComponent(attrs.s as string)).not.toThrow();
  });

  it('applies to span rows', () => {
    const req = {
      resourceSpans: [
        {
          resource: { attributes: [] },
          scopeSpans: [
            {
              scope: { name: '', version: '', attributes: [] },
              spans: [{ ...otlpSpan(), attributes: keyValues({ big: 'y'.repeat(MAX_VALUE_CHARS * 2) }) }],
            },
          ],
        },
      ],
    };
    const [row] = normalizeTraces(req, { projectId: 1, groupByEnv: false, groupFuncsByService: false });
    expect((row.attrs.big as string).length).toBe(MAX_VALUE_CHARS);
    expect(row.attrs[TRUNCATED_ATTRS_KEY]).toEqual(['big']);
  });
});
