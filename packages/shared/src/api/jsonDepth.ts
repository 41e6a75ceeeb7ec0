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

/**
 * The deepest nesting of `{`/`[` in JSON text, ignoring brackets inside strings. Checked before
 * JSON.parse so a body like `[[[[...]]]]` a million deep is refused up front and no recursive
 * step after parsing (flattening, encoding) can run out of stack.
 */
export function jsonNestingDepth(text: string): number {
  let depth = 0;
  let maxDepth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash escapes the next char
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > maxDepth) maxDepth = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return maxDepth;
}

/**
 * The deepest nesting of a JSON request body, checked on the text before it is parsed (ingest and
 * every API route): parsing a 1 MB body of `[[[[...]]]]` 400k deep cost the event loop ~130 ms, and
 * every walk of the value after it more.
 */
export const MAX_BODY_DEPTH = 64;
