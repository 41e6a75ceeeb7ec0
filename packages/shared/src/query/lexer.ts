/**
 * Tokens of the tracing query language (reference query §1.2). Offsets are relative to the text
 * given to `lex`; the parser shifts them to full-query offsets.
 */
export type TokenType = 'ident' | 'string' | 'number' | 'duration' | 'byte' | 'eof';

export interface Token {
  type: TokenType;
  /** Source text (for strings: with quotes). */
  text: string;
  /** Unquoted string, identifier text, or number/duration text. */
  value: string;
  /** For numbers: the value; for durations: nanoseconds. */
  num?: number;
  start: number;
  end: number;
}

export interface LexError {
  message: string;
  start: number;
  end: number;
}

const DURATION_UNITS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };
const DURATION_RE = /^(?:(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h))+$/;
const DURATION_PART_RE = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g;
const NUMBER_RE = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/** Go-style duration literal (`10ms`, `1.5s`, `1h30m`, `-2s`) in nanoseconds, or null. */
export function parseDuration(text: string): number | null {
  let sign = 1;
  let t = text;
  if (t.startsWith('-') || t.startsWith('+')) {
    sign = t.startsWith('-') ? -1 : 1;
    t = t.slice(1);
  }
  if (!DURATION_RE.test(t)) return null;
  let total = 0;
  for (const m of t.matchAll(DURATION_PART_RE)) total += Number(m[1]) * DURATION_UNITS[m[2]];
  return sign * Math.round(total);
}

const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
const isIdentStart = (c: string) => /[A-Za-z_$.]/.test(c);
const isIdentChar = (c: string) => /[A-Za-z0-9_.]/.test(c);
const WORD_END = new Set([' ', '\t', '\n', '\r', '(', ')', '{', '}', ',', '|']);
const ESCAPES: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', n: '\n', r: '\r', t: '\t' };

export function lex(text: string): { tokens: Token[]; error?: LexError } {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (isSpace(c)) {
      i++;
      continue;
    }
    const start = i;
    if (c === '"' || c === "'") {
      let value = '';
      i++;
      let closed = false;
      while (i < text.length) {
        const d = text[i];
        if (d === '\\' && i + 1 < text.length) {
          const e = ESCAPES[text[i + 1]];
          // Unknown escapes keep both characters (the reference drops them: a quirk we fix).
          value += e ?? d + text[i + 1];
          i += 2;
          continue;
        }
        if (d === c) {
          closed = true;
          i++;
          break;
        }
        value += d;
        i++;
      }
      if (!closed) return { tokens, error: { message: 'unterminated quoted string', start, end: text.length } };
      tokens.push({ type: 'string', text: text.slice(start, i), value, start, end: i });
      continue;
    }
    if (/[0-9]/.test(c) || ((c === '-' || c === '+') && /[0-9.]/.test(text[i + 1] ?? ''))) {
      i++;
      while (i < text.length && !WORD_END.has(text[i])) i++;
      const word = text.slice(start, i);
      const dur = parseDuration(word);
      if (dur !== null && !NUMBER_RE.test(word))
        tokens.push({ type: 'duration', text: word, value: word, num: dur, start, end: i });
      else if (NUMBER_RE.test(word))
        tokens.push({ type: 'number', text: word, value: word, num: Number(word), start, end: i });
      else tokens.push({ type: 'string', text: word, value: word, start, end: i });
      continue;
    }
    if (isIdentStart(c)) {
      i++;
      while (i < text.length && isIdentChar(text[i])) i++;
      const word = text.slice(start, i);
      tokens.push({ type: 'ident', text: word, value: word, start, end: i });
      continue;
    }
    i++;
    tokens.push({ type: 'byte', text: c, value: c, start, end: i });
  }
  tokens.push({ type: 'eof', text: '', value: '', start: text.length, end: text.length });
  return { tokens };
}
