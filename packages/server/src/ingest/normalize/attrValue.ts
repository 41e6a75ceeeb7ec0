import type { OtlpAnyValue, OtlpKeyValue } from '../otlp';
import type { AttrMap, AttrValue } from '../spanRow';
import { cleanAttrKey } from './attrKey';

/**
 * OTLP AnyValue → attribute value (reference ingest §2.3). Scalars keep their type; arrays become
 * arrays of strings (the query layer compares array members as text); kvlists become nested maps
 * with cleaned keys; bytes and unset values are dropped, as is an empty array. Returns undefined
 * for "drop this attribute".
 */
export function convertAnyValue(v: OtlpAnyValue | null): AttrValue | undefined {
  if (v == null) return undefined;
  if (v.stringValue != null) return v.stringValue;
  if (v.intValue != null) {
    // AttrValue has no int64: past 2^53 a number would silently change the value, so the
    // exact decimal text is kept instead.
    return typeof v.intValue === 'bigint' ? v.intValue.toString() : v.intValue;
  }
  if (v.boolValue != null) return v.boolValue;
  if (v.doubleValue != null) {
    // NaN/±Infinity cannot survive JSON (they become null); keep them readable.
    return Number.isFinite(v.doubleValue) ? v.doubleValue : String(v.doubleValue);
  }
  if (v.arrayValue != null) {
    const out: string[] = [];
    for (const el of v.arrayValue.values) {
      const s = arrayElementText(el);
      if (s !== undefined) out.push(s);
    }
    return out.length > 0 ? out : undefined;
  }
  if (v.kvlistValue != null) {
    const map: AttrMap = {};
    addAttrs(map, v.kvlistValue.values);
    return map;
  }
  return undefined; // bytes, or no value set
}

/** Array members as text: ints in decimal, doubles shortest form, nested arrays/maps as JSON. */
function arrayElementText(el: OtlpAnyValue | null): string | undefined {
  if (el == null) return undefined;
  if (el.stringValue != null) return el.stringValue;
  if (el.arrayValue != null || el.kvlistValue != null) {
    const v = convertAnyValue(el);
    return v === undefined ? undefined : JSON.stringify(v);
  }
  const v = convertAnyValue(el);
  return v === undefined ? undefined : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/**
 * Adds key/values into `into` with cleaned keys; later keys win, which is how resource → scope →
 * span merging gets its precedence (§2.2). `__proto__` is skipped: assigning it on a plain object
 * would replace the map's prototype instead of storing a value.
 *
 * Returns whether any added key is in `watch` (used to skip alias normalisation, §2.5, for the
 * many spans that carry no alias key: a Set lookup per key is cheaper than probing every alias).
 */
export function addAttrs(into: AttrMap, kvs: readonly OtlpKeyValue[], watch?: ReadonlySet<string>): boolean {
  let seen = false;
  for (let i = 0; i < kvs.length; i++) {
    const kv = kvs[i];
    const key = cleanAttrKey(kv.key);
    if (key === '' || key === '__proto__') continue;
    const value = convertAnyValue(kv.value);
    if (value === undefined) continue;
    into[key] = value;
    if (watch !== undefined && !seen && watch.has(key)) seen = true;
  }
  return seen;
}

export function toAttrMap(kvs: readonly OtlpKeyValue[]): AttrMap {
  const map: AttrMap = {};
  addAttrs(map, kvs);
  return map;
}

/**
 * The value of `key` if it is a non-empty string, else of `fallback` (the stable-semconv name)
 * under the same test, else '' (the reference's `Text(k)`). Fixed arity: this runs several times
 * per span and a rest parameter would allocate an array per call.
 */
export function textAttr(attrs: AttrMap, key: string, fallback?: string): string {
  const v = attrs[key];
  if (typeof v === 'string' && v !== '') return v;
  if (fallback === undefined) return '';
  const f = attrs[fallback];
  return typeof f === 'string' ? f : '';
}
