/**
 * How deeply a JSON value nests, counted without recursion (a value parsed from a 1 MB body can be
 * nested a few hundred thousand levels; JSON.stringify and every recursive walk of it overflow the
 * stack). Stops counting once past `max`.
 */
export function jsonDepthOver(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** The deepest nesting a free-form JSON field of a request may have (saved view params, webhook payloads). */
export const MAX_JSON_DEPTH = 32;
