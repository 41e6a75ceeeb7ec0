/**
 * Word tokens of a log or exception message (reference ingest §2.6, logparser). Group ids of
 * logs and exceptions hash only the words, so messages that differ in numbers, ids, paths,
 * durations or quoted values (`user 42 not found` / `user 97 not found`) land in one group.
 */

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** `.` or `:` followed by whitespace or the end of the text. */
function isTokenEnd(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return (c === 46 || c === 58) && (i + 1 === text.length || isSpace(text.charCodeAt(i + 1)));
}

/** Index just past the closing `close` char, or the end of the text. */
function skipPast(text: string, close: string, from: number): number {
  const end = text.indexOf(close, from);
  return end < 0 ? text.length : end + 1;
}

/** A token of a message: `text.slice(start, end)`; `word` when the group id hashes it. */
export interface MessageToken {
  start: number;
  end: number;
  word: boolean;
}

/**
 * Splits on whitespace, `,` and `;`; `.` and `:` end a token when followed by whitespace or the
 * end. Quoted tokens are ignored; quoted strings and `{...}` / `<...>` groups inside a token make
 * it a parameter. A token of ASCII letters and `-` (with at least one letter) is a word.
 */
export function messageWords(text: string): string[] {
  return messageTokens(text)
    .filter((t) => t.word)
    .map((t) => text.slice(t.start, t.end));
}

/** Every token of a message (messageWords' tokenizer), words and the parameters it skips. */
export function messageTokens(text: string): MessageToken[] {
  const tokens: MessageToken[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    if (isSpace(c) || c === 44 || c === 59 || isTokenEnd(text, i)) {
      i++;
      continue;
    }
    if (c === 34 || c === 39 || c === 96) {
      const start = i;
      i = skipPast(text, text[i], i + 1);
      tokens.push({ start, end: i, word: false });
      continue;
    }
    const start = i;
    let word = true;
    let letters = 0;
    while (i < n) {
      c = text.charCodeAt(i);
      if (isSpace(c) || c === 44 || c === 59) break;
      if (isTokenEnd(text, i)) break;
      if (c === 39 && isLetter(text.charCodeAt(i - 1)) && isLetter(text.charCodeAt(i + 1))) {
        // An apostrophe inside a word (`can't`) is not a quote: swallowing to the next `'` would
        // drop the rest of the message. The token is just not a word.
        word = false;
        i++;
      } else if (c === 34 || c === 39 || c === 96) {
        i = skipPast(text, text[i], i + 1);
        word = false;
      } else if (c === 123 || c === 60) {
        i = skipPast(text, c === 123 ? '}' : '>', i + 1);
        word = false;
      } else {
        if (isLetter(c)) letters++;
        else if (c !== 45) word = false;
        i++;
      }
    }
    tokens.push({ start, end: i, word: word && letters > 0 });
  }
  return tokens;
}
