import type { AttrMap, AttrValue } from '../spanRow';

/**
 * Caps on what one row may carry, so a hostile or buggy client cannot make single rows huge:
 * at most MAX_ATTRS attributes, string values of at most MAX_VALUE_CHARS characters, arrays of at
 * most MAX_ARRAY_ITEMS members. What was cut is recorded on the row itself, in the attributes
 * `lantern.dropped_attributes_count` and `lantern.truncated_attributes` (the keys shortened), so
 * nothing disappears silently.
 */
export const MAX_ATTRS = 256;
export const MAX_VALUE_CHARS = 64 * 1024;
export const MAX_ARRAY_ITEMS = 1000;
/** How deep JSON/kvlist fields in log bodies and messages are flattened. */
export const MAX_PARAM_DEPTH = 16;

export const DROPPED_ATTRS_KEY = 'lantern.dropped_attributes_count';
export const TRUNCATED_ATTRS_KEY = 'lantern.truncated_attributes';

/** Applies the caps to `attrs` in place. Cheap when nothing is over (one pass, no allocation). */
export function limitAttrs(attrs: AttrMap): void {
  let count = 0;
  let dropped = 0;
  let truncated: string[] | undefined;
  for (const key in attrs) {
    if (++count > MAX_ATTRS) {
      delete attrs[key];
      dropped++;
      continue;
    }
    const v = attrs[key];
    const cut = limitValue(v);
    if (cut !== v) {
      attrs[key] = cut;
      (truncated ??= []).push(key);
    }
  }
  if (dropped > 0) attrs[DROPPED_ATTRS_KEY] = dropped;
  if (truncated) attrs[TRUNCATED_ATTRS_KEY] = truncated;
}

function limitValue(v: AttrValue): AttrValue {
  if (typeof v === 'string') return v.length > MAX_VALUE_CHARS ? cutString(v) : v;
  if (Array.isArray(v)) {
    let out: AttrValue[] | undefined;
    if (v.length > MAX_ARRAY_ITEMS) out = v.slice(0, MAX_ARRAY_ITEMS);
    for (let i = 0; i < (out ?? v).length; i++) {
      const el = (out ?? v)[i];
      if (typeof el === 'string' && el.length > MAX_VALUE_CHARS)
        (out ??= v.slice(0, MAX_ARRAY_ITEMS))[i] = cutString(el);
    }
    return out ?? v;
  }
  if (v !== null && typeof v === 'object') {
    // Nested maps (OTLP kvlists on spans) are bounded by their JSON text size.
    const text = JSON.stringify(v);
    return text.length > MAX_VALUE_CHARS ? cutString(text) : v;
  }
  return v;
}

function cutString(s: string): string {
  let end = MAX_VALUE_CHARS - 3;
  // Do not split a surrogate pair.
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return s.slice(0, end) + '...';
}
