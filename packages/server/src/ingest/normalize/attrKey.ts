/**
 * Attribute key cleaning (reference ingest §2.3, `attrkey.Clean`). Every OTLP key, nested kvlist
 * keys included, is reduced to `[a-z0-9._]` so the query language can name any attribute without
 * quoting: camelCase → snake_case, `-` → `_`, `/` → `.`, other bytes (spaces, quotes, non-ASCII)
 * dropped. A key that cleans to '' is skipped by the caller.
 */

function isCleanChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 46 || c === 95; // a-z 0-9 . _
}

function isUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}

function isLower(c: number): boolean {
  return c >= 97 && c <= 122;
}

function isAlnum(c: number): boolean {
  return isLower(c) || isUpper(c) || (c >= 48 && c <= 57);
}

export function cleanAttrKey(key: string): string {
  // Fast path: almost every key (`http.method`, `service.name`) is already clean.
  let i = 0;
  while (i < key.length && isCleanChar(key.charCodeAt(i))) i++;
  if (i === key.length) return key;

  // The reference works byte by byte on UTF-8; JS strings are UTF-16, but every non-ASCII code
  // unit maps to bytes ≥ 0x80, which are dropped and are never "alphanumeric", so the result is
  // the same.
  let out = key.slice(0, i);
  for (; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (isCleanChar(c)) out += key[i];
    else if (c === 47)
      out += '.'; // '/'
    else if (c === 45)
      out += '_'; // '-'
    else if (isUpper(c)) {
      // camelCase boundary: an upper letter after an alphanumeric and before a lower letter.
      if (i > 0 && isAlnum(key.charCodeAt(i - 1)) && i + 1 < key.length && isLower(key.charCodeAt(i + 1))) out += '_';
      out += String.fromCharCode(c + 32);
    }
  }
  return out;
}
