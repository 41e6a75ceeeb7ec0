import { createHash } from 'node:crypto';
import { cleanAttrKey, convertAnyValue, type AttrMap, type AttrValue, type OtlpKeyValue } from '../../ingest';

/**
 * A metric datapoint's series: its attributes (resource + scope + datapoint, later wins, sorted by
 * key, values as text) and their hash, memoised by the raw pairs, which come back with every
 * export (normalizeMetrics.ts).
 */

/** Resource + scope attributes of a group of metrics, sorted by key, values as text. */
export interface BaseAttrs {
  keys: string[];
  vals: string[];
  /** The pairs as text: the start of the series memo's keys. */
  text?: string;
  /** Keys no series keeps (config `metrics.drop_attrs`); already left out of `keys`. */
  drop?: ReadonlySet<string>;
}

/**
 * The group's attributes without the dropped keys. The memo text starts with the dropped keys,
 * so series mapped under different drop lists never share a memo entry.
 */
export function baseAttrs(attrs: AttrMap, drop?: ReadonlySet<string>): BaseAttrs {
  const keys = Object.keys(attrs)
    .filter((k) => !drop?.has(k))
    .sort();
  const vals = keys.map((k) => attrText(attrs[k]));
  let text = drop?.size ? [...drop].join('\u0003') + '\u0004' : '';
  for (let i = 0; i < keys.length; i++) text += keys[i] + '\u0000' + vals[i] + '\u0000';
  return { keys, vals, text, ...(drop?.size ? { drop } : {}) };
}

export interface Series {
  keys: string[];
  vals: string[];
  hash: string;
}

/**
 * A datapoint's series (sorted attributes and hash) from the group's attributes and its own.
 * The same series come back with every export, so the result is memoised by the raw pairs
 * (bounded, cleared when full): a lookup instead of merging, sorting and hashing per point.
 */
export function seriesOf(base: BaseAttrs, kvs: readonly OtlpKeyValue[]): Series {
  let text = base.text ?? '';
  for (const kv of kvs) {
    const v = convertAnyValue(kv.value);
    text += '\u0001' + kv.key + '\u0000' + (v === undefined ? '\u0002' : attrText(v));
  }
  let series = seriesMemo.get(text);
  if (series === undefined) {
    const { keys, vals } = seriesAttrs(base, kvs);
    series = { keys, vals, hash: seriesHash(keys, vals) };
    if (seriesMemo.size >= HASH_MEMO_MAX) seriesMemo.clear();
    seriesMemo.set(text, series);
  }
  return series;
}

const seriesMemo = new Map<string, Series>();

/**
 * The base attributes overridden and extended by a datapoint's, sorted by key. Without datapoint
 * attributes the base arrays are shared as they are (rows never modify them): this runs for
 * every datapoint, so it avoids building a map per point.
 */
function seriesAttrs(base: BaseAttrs, kvs: readonly OtlpKeyValue[]): BaseAttrs {
  if (kvs.length === 0) return base;
  const keys = base.keys.slice();
  const vals = base.vals.slice();
  let added = false;
  for (const kv of kvs) {
    const key = cleanAttrKey(kv.key);
    if (key === '' || key === '__proto__' || base.drop?.has(key)) continue;
    const v = convertAnyValue(kv.value);
    if (v === undefined) continue;
    const i = keys.indexOf(key);
    if (i >= 0) vals[i] = attrText(v);
    else {
      keys.push(key);
      vals.push(attrText(v));
      added = true;
    }
  }
  if (!added) return { keys, vals };
  const order = keys.map((_, i) => i).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
  return { keys: order.map((i) => keys[i]), vals: order.map((i) => vals[i]) };
}

/** Attribute values as text (all metric attributes are strings, reference §5.1). */
export function attrText(v: AttrValue | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/**
 * Series identity: the first 8 bytes of SHA-1 over the sorted key/value pairs, NUL-separated so
 * `ab`+`c` and `a`+`bc` differ (same hash family as span group ids).
 */
export function seriesHash(keys: readonly string[], values: readonly string[]): string {
  let text = '';
  for (let i = 0; i < keys.length; i++) text += keys[i] + '\u0000' + values[i] + '\u0000';
  // The same series come back with every export: a Map lookup is far cheaper than SHA-1. Bounded
  // (cleared when full); the result is the same with or without it.
  let hash = hashMemo.get(text);
  if (hash === undefined) {
    hash = createHash('sha1').update(text).digest().readBigUInt64BE(0).toString();
    if (hashMemo.size >= HASH_MEMO_MAX) hashMemo.clear();
    hashMemo.set(text, hash);
  }
  return hash;
}

const HASH_MEMO_MAX = 100_000;
const hashMemo = new Map<string, string>();
