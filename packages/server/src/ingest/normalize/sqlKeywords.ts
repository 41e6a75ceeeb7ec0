/**
 * The SQL shape digest used in db group ids (reference ingest §2.7, `hashDBStmt`): only the
 * statement's structural keywords, so `SELECT * FROM users WHERE id = 1` and `... id = 2` group
 * together while a SELECT and a DELETE on the same table do not. Table and column names and
 * literals are left out; table grouping comes from `db.sql.table` / `db.operation` and the name.
 */
const KEYWORDS = new Set([
  'SELECT',
  'INSERT',
  'UPDATE',
  'DELETE',
  'CREATE',
  'DROP',
  'TRUNCATE',
  'WITH',
  'FROM',
  'TABLE',
  'JOIN',
  'UNION',
  'WHERE',
  'GROUP',
  'LIMIT',
  'ORDER',
  'HAVING',
]);

function isIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95; // A-Z a-z _
}

function isIdentChar(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57);
}

/**
 * The keywords of `sql` in order, uppercased and space-joined. Uppercasing is a deliberate change
 * from the reference (which keeps the original case, so `select` and `SELECT` split a group):
 * keyword case carries no meaning in SQL.
 */
export function sqlKeywordDigest(sql: string): string {
  const out: string[] = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql.charCodeAt(i);
    if (c === 39 || c === 34 || c === 96) {
      // '...' values, "..." and `...` identifiers: skipped whole; a doubled quote stays inside.
      let j = i + 1;
      for (;;) {
        const end = sql.indexOf(sql[i], j);
        if (end < 0) {
          j = n;
          break;
        }
        if (sql.charCodeAt(end + 1) === c) {
          j = end + 2;
          continue;
        }
        j = end + 1;
        break;
      }
      i = j;
    } else if (isIdentStart(c) || (c === 63 && isIdentStart(sql.charCodeAt(i + 1)))) {
      const start = i;
      i++;
      while (i < n && isIdentChar(sql.charCodeAt(i))) i++;
      const word = sql.slice(start, i).toUpperCase();
      if (KEYWORDS.has(word)) out.push(word);
    } else if (c >= 48 && c <= 57) {
      // A number (or a number-led run such as `1e5`, `2abc`): never a keyword.
      while (i < n && isIdentChar(sql.charCodeAt(i))) i++;
    } else {
      i++;
    }
  }
  return out.join(' ');
}
