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
