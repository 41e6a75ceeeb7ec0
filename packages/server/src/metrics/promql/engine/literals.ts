// PromQL literals: numbers (decimal, hex, Inf, NaN, underscores, durations as seconds), durations
// (ms s m h d w y, combined as in 1h30m) and Go-style quoted strings.

const UNIT_MS: Record<string, number> = {
  y: 365 * 24 * 3600_000,
  w: 7 * 24 * 3600_000,
  d: 24 * 3600_000,
  h: 3600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
};
const DURATION_RE = /^(?:\d+(?:ms|[ywdhms]))+$/;
const DURATION_PART_RE = /(\d+)(ms|[ywdhms])/g;
const UNIT_ORDER = ['y', 'w', 'd', 'h', 'm', 's', 'ms'];

/** Milliseconds of a duration such as 5m or 1h30m; undefined when the text is not a duration. */
export function parseDurationMs(text: string): number | undefined {
  if (!DURATION_RE.test(text)) return undefined;
  let total = 0;
  let lastUnit = -1;
  for (const m of text.matchAll(DURATION_PART_RE)) {
    const unit = UNIT_ORDER.indexOf(m[2]);
    // Units must come largest first, each at most once (1m1h is not a duration).
    if (unit <= lastUnit) return undefined;
    lastUnit = unit;
    total += Number(m[1]) * UNIT_MS[m[2]];
  }
  return total;
}

/** The value of a number literal, or undefined if it is not one. Durations count as seconds. */
export function parseNumber(text: string): number | undefined {
  const t = text.toLowerCase();
  if (t === 'inf' || t === '+inf') return Infinity;
  if (t === '-inf') return -Infinity;
  if (t === 'nan' || t === '+nan' || t === '-nan') return NaN;
  if (/^0x[0-9a-f]+$/.test(t)) return parseInt(t.slice(2), 16);
  const duration = parseDurationMs(text);
  if (duration !== undefined) return duration / 1000;
  const plain = t.replace(/_/g, '');
  if (!/^(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/.test(plain)) return undefined;
  return Number(plain);
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  '"': '"',
  "'": "'",
};

/** Unquotes a PromQL string literal ("..", '..' with Go escapes, `..` raw); throws a message on bad escapes. */
export function unquoteString(text: string): string {
  const q = text[0];
  if (text.length < 2 || text[text.length - 1] !== q) throw new Error('unterminated quoted string');
  const body = text.slice(1, -1);
  if (q === '`') return body;
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i];
    if (e in SIMPLE_ESCAPES) {
      if ((e === '"' && q === "'") || (e === "'" && q === '"')) throw new Error('invalid syntax');
      out += SIMPLE_ESCAPES[e];
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + len);
      if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) throw new Error('invalid syntax');
      const code = parseInt(hex, 16);
      out += e === 'x' ? String.fromCharCode(code) : String.fromCodePoint(code);
      i += len;
    } else if (e !== undefined && e >= '0' && e <= '7') {
      const oct = body.slice(i, i + 3);
      if (!/^[0-7]{3}$/.test(oct)) throw new Error('invalid syntax');
      out += String.fromCharCode(parseInt(oct, 8));
      i += 2;
    } else {
      throw new Error('invalid syntax');
    }
  }
  return out;
}

/** A Prometheus (RE2) regex as a fully anchored JavaScript RegExp; `.` matches newlines as in Prometheus. */
export function compileRegex(source: string): RegExp {
  let flags = 's';
  let body = source;
  // RE2's leading (?i) flag group; JavaScript only takes flags on the whole expression.
  const flagGroup = /^\(\?([imsU]+)\)/.exec(body);
  if (flagGroup) {
    if (flagGroup[1].includes('i')) flags += 'i';
    if (flagGroup[1].includes('m')) flags += 'm';
    body = body.slice(flagGroup[0].length);
  }
  // RE2 spells named groups (?P<name>...).
  body = body.replace(/\(\?P</g, '(?<');
  return new RegExp(`^(?:${body})$`, flags);
}
