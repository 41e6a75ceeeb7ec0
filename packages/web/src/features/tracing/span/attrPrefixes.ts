/**
 * Key prefix chips over a span's attributes (reference frontend §1.3.11): every dotted ancestor
 * prefix of every key, compacted while there are 10 or more (drop prefixes with a single key, then
 * children that hold nearly all of their parent's keys), sorted, plus 'other' for keys under no
 * prefix.
 */
export const MAX_PREFIXES = 10;

export function attrPrefixes(keys: string[]): string[] {
  const counts = new Map<string, number>();
  for (const key of keys) {
    const parts = key.split('.');
    for (let i = 1; i < parts.length; i++) {
      const prefix = `${parts.slice(0, i).join('.')}.`;
      counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
    }
  }
  for (let t = 1; counts.size >= MAX_PREFIXES && t <= 31; t++) {
    for (const [prefix, n] of [...counts]) {
      if (n <= 1) counts.delete(prefix);
    }
    for (const [prefix, n] of [...counts]) {
      const parent = prefix.slice(0, prefix.slice(0, -1).lastIndexOf('.') + 1);
      const parentCount = parent ? counts.get(parent) : undefined;
      if (parentCount !== undefined && parentCount - n <= t) counts.delete(prefix);
    }
  }
  const prefixes = [...counts.keys()].sort();
  if (keys.some((k) => !prefixes.some((p) => k.startsWith(p)))) prefixes.push('other');
  return prefixes;
}

/** Keys shown for a chosen prefix ('other': keys under no listed prefix). */
export function keysForPrefix(keys: string[], prefix: string | null, prefixes: string[]): string[] {
  if (!prefix) return keys;
  if (prefix === 'other') return keys.filter((k) => !prefixes.some((p) => p !== 'other' && k.startsWith(p)));
  return keys.filter((k) => k.startsWith(prefix));
}

/** Dotted keys nested into objects for the JSON view; a scalar colliding with a branch moves under `_value`. */
export function nestAttrs(attrs: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(attrs).sort()) {
    let value = attrs[key];
    if (typeof value === 'string' && /^\{.*\}$/s.test(value)) {
      try {
        value = JSON.parse(value);
      } catch {
        // keep the text
      }
    }
    const parts = key.split('.');
    let node = out;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      if (next === undefined) node[part] = {};
      else if (typeof next !== 'object' || next === null || Array.isArray(next)) node[part] = { _value: next };
      node = node[part] as Record<string, unknown>;
    }
    const last = parts[parts.length - 1];
    const existing = node[last];
    if (existing && typeof existing === 'object' && !Array.isArray(existing))
      (existing as Record<string, unknown>)._value = value;
    else node[last] = value;
  }
  return out;
}
