import { describe, it, expect } from 'vitest';
import type { OtlpAnyValue } from '../otlp';
import { addAttrs, convertAnyValue, textAttr, toAttrMap } from './attrValue';

describe('convertAnyValue (reference ingest §2.3)', () => {
  it.each<[string, OtlpAnyValue | null, unknown]>([
    ['string', { stringValue: 'GET' }, 'GET'],
    ['empty string kept', { stringValue: '' }, ''],
    ['int', { intValue: 200 }, 200],
    ['negative int', { intValue: -5 }, -5],
    ['int64 beyond 2^53 stays exact as text', { intValue: 9007199254740993n }, '9007199254740993'],
    ['double', { doubleValue: 1.5 }, 1.5],
    ['NaN as text', { doubleValue: NaN }, 'NaN'],
    ['Infinity as text', { doubleValue: Infinity }, 'Infinity'],
    ['bool', { boolValue: false }, false],
    [
      'array of mixed scalars → strings',
      { arrayValue: { values: [{ stringValue: 'a' }, { intValue: 7 }, { doubleValue: 0.25 }, { boolValue: true }] } },
      ['a', '7', '0.25', 'true'],
    ],
    [
      'nested array and map as JSON text',
      {
        arrayValue: {
          values: [
            { arrayValue: { values: [{ intValue: 1 }] } },
            { kvlistValue: { values: [{ key: 'K', value: { stringValue: 'v' } }] } },
          ],
        },
      },
      ['["1"]', '{"k":"v"}'],
    ],
    [
      'bytes inside an array are skipped',
      { arrayValue: { values: [{ bytesValue: new Uint8Array([1]) }, { stringValue: 'x' }] } },
      ['x'],
    ],
    ['empty array dropped', { arrayValue: { values: [] } }, undefined],
    ['array of only bytes dropped', { arrayValue: { values: [{ bytesValue: new Uint8Array([1]) }] } }, undefined],
    [
      'kvlist → nested map with cleaned keys',
      {
        kvlistValue: {
          values: [
            { key: 'userId', value: { intValue: 3 } },
            { key: 'Inner', value: { kvlistValue: { values: [] } } },
          ],
        },
      },
      { user_id: 3, inner: {} },
    ],
    ['bytes dropped', { bytesValue: new Uint8Array([1, 2]) }, undefined],
    ['no value set dropped', {}, undefined],
    ['null dropped', null, undefined],
  ])('%s', (_name, input, want) => {
    expect(convertAnyValue(input)).toEqual(want);
  });
});

describe('addAttrs', () => {
  it('cleans keys, lets later keys win, skips empty keys, dropped values and __proto__', () => {
    const map = toAttrMap([
      { key: 'a', value: { stringValue: '1' } },
      { key: 'A', value: { stringValue: '2' } },
      { key: '"', value: { stringValue: 'empty key' } },
      { key: 'b', value: { bytesValue: new Uint8Array([1]) } },
      { key: '__proto__', value: { stringValue: 'x' } },
      { key: 'c', value: null },
    ]);
    expect(map).toEqual({ a: '2' });
    expect(Object.getPrototypeOf(map)).toBe(Object.prototype);
  });

  it('reports whether a watched key was added', () => {
    const watch = new Set(['service']);
    expect(addAttrs({}, [{ key: 'Service', value: { stringValue: 's' } }], watch)).toBe(true);
    expect(addAttrs({}, [{ key: 'other', value: { stringValue: 's' } }], watch)).toBe(false);
    expect(addAttrs({}, [{ key: 'service', value: { bytesValue: new Uint8Array() } }], watch)).toBe(false);
  });
});

describe('textAttr', () => {
  it.each<[Record<string, unknown>, string]>([
    [{ k: 'v' }, 'v'],
    [{ k: '' }, ''],
    [{ k: 5 }, ''],
    [{ k: '', f: 'fallback' }, 'fallback'],
    [{ f: 'fallback' }, 'fallback'],
    [{}, ''],
  ])('%j → %j', (attrs, want) => {
    expect(textAttr(attrs as never, 'k', 'f')).toBe(want);
  });
});
