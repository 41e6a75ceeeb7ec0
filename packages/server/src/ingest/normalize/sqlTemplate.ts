/**
 * SQL templates (issue 20): a statement with its literals replaced by `?`, so a db group is named
 * by its query rather than by one execution of it: `SELECT * FROM users WHERE id = 42 AND name =
 * 'bob'` → `SELECT * FROM users WHERE id = ? AND name = ?`. Identifiers (also `"quoted"`,
 * `` `quoted` `` and `[quoted]` ones) and bind parameters (`$1`, `?`, `:name`, `@p1`) stay;
 * comments (which carry per-request text such as sqlcommenter's trace context) go; whitespace
 * runs become one space; a list of only `?` is one `(?)`, and repeated `(?)` rows are one, so
 * `IN (1, 2, 3)` and multi-row VALUES of any length share a template.
 */

function isIdentChar(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c === 36; // A-Z a-z 0-9 _ $
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** Index just past the quoted text opening at `i` (a doubled or backslashed quote stays inside). */
function quotedEnd(sql: string, i: number, close: number): number {
  for (let j = i + 1; j < sql.length; j++) {
    const c = sql.charCodeAt(j);
    if (c === 92 && close === 39) j++;
    else if (c === close) {
      if (sql.charCodeAt(j + 1) === close) j++;
      else return j + 1;
    }
  }
  return sql.length;
}

/** One-letter prefixes of string literals: E'…' (escapes), N'…' (national), X'…' / B'…' (bits). */
const STRING_PREFIXES = new Set(['E', 'e', 'N', 'n', 'X', 'x', 'B', 'b']);

/** `$$…$$` or `$tag$…$tag$` at `i`: index past it, or -1 when `i` does not open one. */
function dollarQuotedEnd(sql: string, i: number): number {
  const m = /^\$[A-Za-z_]*\$/.exec(sql.slice(i, i + 64));
  if (!m) return -1;
  const end = sql.indexOf(m[0], i + m[0].length);
  return end < 0 ? sql.length : end + m[0].length;
}

export function templateSql(sql: string): string {
  let out = '';
  let i = 0;
  const n = sql.length;
  // Whether `out` ends with a space (or is empty): checked without reading the growing string.
  let spaced = true;
  const space = () => {
    if (!spaced) out += ' ';
    spaced = true;
  };
  const emit = (text: string) => {
    out += text;
    spaced = false;
  };
  while (i < n) {
    const c = sql.charCodeAt(i);
    const next = sql.charCodeAt(i + 1);
    if (isSpace(c)) {
      space();
      i++;
    } else if (c === 45 && next === 45) {
      // -- comment to the end of the line
      const end = sql.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
      space();
    } else if (c === 47 && next === 42) {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      space();
    } else if (c === 39) {
      emit('?');
      i = quotedEnd(sql, i, 39);
    } else if (c === 34 || c === 96) {
      const end = quotedEnd(sql, i, c);
      emit(sql.slice(i, end));
      i = end;
    } else if (c === 91 /* [ */ && /^\[[A-Za-z_][\w ]*\]/.test(sql.slice(i, i + 130))) {
      const end = sql.indexOf(']', i) + 1;
      emit(sql.slice(i, end));
      i = end;
    } else if (c === 36 && dollarQuotedEnd(sql, i) > 0) {
      emit('?');
      i = dollarQuotedEnd(sql, i);
    } else if (isDigit(c) || (c === 46 && isDigit(next))) {
      // A number, or a number-led run (`1e5`, `0x1F`, `2abc`): one literal.
      while (i < n && (isIdentChar(sql.charCodeAt(i)) || (sql.charCodeAt(i) === 46 && isDigit(sql.charCodeAt(i + 1)))))
        i++;
      emit('?');
    } else if (isIdentChar(c) || c === 58 || c === 64 || c === 63) {
      // Identifiers, keywords and bind parameters (`$1`, `:name`, `@p1`, `?`, `?name`).
      const start = i;
      i++;
      while (i < n && isIdentChar(sql.charCodeAt(i))) i++;
      const word = sql.slice(start, i);
      if (sql.charCodeAt(i) === 39 && STRING_PREFIXES.has(word)) {
        emit('?');
        i = quotedEnd(sql, i, 39);
      } else {
        emit(word);
      }
    } else {
      emit(sql[i]);
      i++;
    }
  }
  return collapseLists(out.trimEnd());
}

/** `(?, ?, ?)` → `(?)`, then `(?), (?), (?)` → `(?)`. */
function collapseLists(sql: string): string {
  return sql.replace(/\(\s*\?(?:\s*,\s*\?)+\s*\)/g, '(?)').replace(/\(\?\)(?:\s*,\s*\(\?\))+/g, '(?)');
}
