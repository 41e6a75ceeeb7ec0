/**
 * How widget writes merge into the address query (spec tracing §2: filters live in the address,
 * updates debounced 100 ms). Pure: `applyPatch` turns the current query and the pending writes
 * into the next query text; null removes a key, an array repeats it.
 */
export type AddressValue = string | string[] | null;
export type AddressPatch = Record<string, AddressValue>;

export function applyPatch(search: string, patch: AddressPatch): string {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(patch)) {
    params.delete(key);
    if (value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
  }
  return params.toString();
}

/**
 * Push or replace (reference frontend §2.2): the first write after a navigation the user made
 * (a link, back/forward, the page's own default values) replaces the entry, so Back does not land
 * on a half-initialised page; later writes (the user changing filters) push.
 */
export function shouldReplace(currentUrl: string, lastWrittenUrl: string | undefined, forced?: boolean): boolean {
  if (forced !== undefined) return forced;
  return currentUrl !== lastWrittenUrl;
}
