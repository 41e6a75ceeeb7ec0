import type { Range } from './ast';

/**
 * Lexer (reference query §3.2): identifiers start with a letter, `_`, `$` or `.` and go on with
 * letters, digits, `_` and `.`; a word starting with a digit ends at whitespace or an operator and
 * is a duration (`100ms`), a byte size (`10MiB`), a number, or a plain value. Strings are single or
 * double quoted with `\` escapes. `-` and `+` are operators (no negative literals).
 */
export type TokenKind = 'ident' | 'number' | 'duration' | 'bytes' | 'value' | 'string' | 'op' | 'eof';

export interface Token {
  kind: TokenKind;
  text: string;
  /** The number in base units: ns for durations, bytes for sizes. */
  num?: number;
  range: Range;
}

export class LexError extends Error {
  constructor(
    message: string,
    readonly range: Range,
  ) {
    super(message);
  }
}

const OPS = [
  '==',
  '!=',
  '!~',
  '<=',
  '>=',
  '<>',
  '(',
  ')',
  '{',
  '}',
  ',',
  '+',
  '-',
  '*',
  '/',
  '%',
  '=',
  '~',
  '<',
  '>',
  '!',
];
const WORD_END = new Set([
  ' ',
  '\t',
  '\n',
  '\r',
  '+',
  '-',
  '/',
  '%',
  '*',
  '=',
  '<',
  '>',
  '!',
  '(',
  ')',
  '{',
  '}',
  ',',
  '|',
]);

const DURATION_NS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };
const BYTES: Record<string, number> = {
  kb: 1024,
  KB: 1024,
  KiB: 1024,
  mb: 1024 ** 2,
  MB: 1024 ** 2,
  MiB: 1024 ** 2,
  gb: 1024 ** 3,
  GB: 1024 ** 3,
  GiB: 1024 ** 3,
  tb: 1024 ** 4,
  TB: 1024 ** 4,
  TiB: 1024 ** 4,
};

const isIdentStart = (c: string) => /[A-Za-z_$.]/.test(c);
const isIdentChar = (c: string) => /[A-Za-z0-9_.$]/.test(c);

export function lex(text: string, offset: number): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const start = i;
    if (c === '"' || c === "'") {
      let s = '';
      i++;
      while (i < text.length && text[i] !== c) {
        if (text[i] === '\\' && i + 1 < text.length) {
          const e = text[i + 1];
          s += e === 'n' ? '\n' : e === 't' ? '\t' : e === 'r' ? '\r' : e;
          i += 2;
        } else s += text[i++];
      }
      if (i >= text.length)
        throw new LexError('unterminated string', { start: offset + start, end: offset + text.length });
      i++;
      out.push({ kind: 'string', text: s, range: { start: offset + start, end: offset + i } });
      continue;
    }
    if (/[0-9]/.test(c)) {
      while (i < text.length && !WORD_END.has(text[i])) i++;
      out.push(numberWord(text.slice(start, i), { start: offset + start, end: offset + i }));
      continue;
    }
    if (isIdentStart(c)) {
      while (i < text.length && isIdentChar(text[i])) i++;
      out.push({ kind: 'ident', text: text.slice(start, i), range: { start: offset + start, end: offset + i } });
      continue;
    }
    const op = OPS.find((o) => text.startsWith(o, i));
    if (!op)
      throw new LexError(`unexpected character ${JSON.stringify(c)}`, { start: offset + i, end: offset + i + 1 });
    i += op.length;
    out.push({ kind: 'op', text: op, range: { start: offset + start, end: offset + i } });
  }
  out.push({ kind: 'eof', text: '', range: { start: offset + text.length, end: offset + text.length } });
  return out;
}

function numberWord(word: string, range: Range): Token {
  const m = /^(\d+(?:\.\d+)?)([a-zA-Zµ]+)$/.exec(word);
  if (m) {
    if (DURATION_NS[m[2]] !== undefined)
      return { kind: 'duration', text: word, num: Number(m[1]) * DURATION_NS[m[2]], range };
    if (BYTES[m[2]] !== undefined) return { kind: 'bytes', text: word, num: Number(m[1]) * BYTES[m[2]], range };
  }
  if (/^\d+(\.\d+)?(e[+-]?\d+)?$/i.test(word)) return { kind: 'number', text: word, num: Number(word), range };
  return { kind: 'value', text: word, range };
}
