import { messageTokens } from './messageWords';

/**
 * Message templates (issue 20): a log or exception message with its variable parts replaced by
 * placeholders, so a group of messages is named by its shape rather than by one of its members:
 * `payment 4407 for order 9b2f…-… declined after 101ms` → `payment <num> for order <uuid> declined
 * after <duration>`. Rows keep their literal text; only the group's name is the template.
 *
 * Placeholders: `<uuid>`, `<email>`, `<time>` (timestamps and times of day), `<date>`, `<mac>`,
 * `<ip>` (v4 and v6), `<duration>` (`101ms`, `1h2m3s`), `<size>` (`512KB`), `<hex>` (`0x1f`, runs of hex
 * digits mixing digits and letters; `<num>` in a group's name, see TemplateOptions), `<id>` (long runs
 * of letters and digits), `<num>`, `<str>` (a quoted value); a JSON object keeps its keys and has its
 * values replaced.
 *
 * Every replaced text holds a digit, an `@`, a quote or a brace, so a message's words (messageWords:
 * runs of letters and `-`) are never replaced. The group id hashes the template's words (for
 * ordinary text, the message's own), so messages with one template share one group.
 */

const PATTERNS: readonly [placeholder: string, source: string][] = [
  ['<email>', String.raw`(?<![\w.%+-])[A-Za-z0-9][\w.%+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}`],
  ['<uuid>', String.raw`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`],
  ['<time>', String.raw`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?`],
  ['<date>', String.raw`\d{4}-\d{2}-\d{2}|\d{4}/\d{2}/\d{2}`],
  ['<mac>', String.raw`[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5}|[0-9a-fA-F]{2}(?:-[0-9a-fA-F]{2}){5}`],
  ['<time>', String.raw`\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?`],
  ['<ip>', String.raw`\d{1,3}(?:\.\d{1,3}){3}`],
  [
    '<ip>',
    String.raw`(?:[0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|(?:[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4})*)?::(?:[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4})*)?`,
  ],
  [
    '<duration>',
    String.raw`(?:\d+(?:\.\d+)?(?:ns|us|µs|μs|ms|s|m|h))+|\d+(?:\.\d+)?(?:sec|secs|min|mins|hrs|hr|d|days)`,
  ],
  ['<size>', String.raw`\d+(?:\.\d+)?(?:[KMGTP]i?B|kB|B)`],
  ['<hex>', String.raw`0[xX][0-9a-fA-F]+`],
  ['<num>', String.raw`\d+(?:\.\d+)*(?:[eE][+-]?\d+)?`],
  ['<hex>', String.raw`[0-9a-fA-F]{4,}`],
  ['<id>', String.raw`[A-Za-z0-9]{12,}`],
];

/**
 * One pass over the text: the alternatives in order, each a whole run (not glued to a letter or
 * digit on either side, so `v2`, `utf8` and `k8s` stay, nor following `v1.`, so `v1.2.3` does).
 * Alternative i is capture group i + 1.
 */
const VALUE_RE = new RegExp(
  `(?<![A-Za-z0-9]|[A-Za-z0-9]\\.)(?:${PATTERNS.map(([, source]) => `(${source})`).join('|')})(?![A-Za-z0-9])`,
  'g',
);

const DIGIT = /\d/;
const CANDIDATE = /[\d@]/;

/** Index in PATTERNS of the bare run of hex digits (`9f3a2b1c`), as opposed to `0x1f`. */
const BARE_HEX = PATTERNS.findIndex(([placeholder, source]) => placeholder === '<hex>' && !source.startsWith('0'));

/** The placeholder for a match, or the match itself when it is not a variable after all. */
function placeholderFor(match: string, groupName: boolean, groups: unknown[]): string {
  const i = groups.findIndex((g) => g !== undefined);
  const placeholder = PATTERNS[i][0];
  if (placeholder === '<email>') return placeholder;
  // Runs of letters only (`cafe`, `added`, `std::`) are words, not values.
  if (!DIGIT.test(match)) return match;
  if (placeholder === '<hex>' && /^\d+$/.test(match)) return '<num>';
  // A group's name (see TemplateOptions): a bare hex run is named as the digits-only run would be.
  if (i === BARE_HEX && groupName) return '<num>';
  if (placeholder === '<id>' && !isIdLike(match)) return match;
  return placeholder;
}

/** A long run is an id when it mixes letters with at least a few digits (`sha256WithRSA` is not). */
function isIdLike(run: string): boolean {
  let digits = 0;
  for (let i = 0; i < run.length; i++) if (run.charCodeAt(i) >= 48 && run.charCodeAt(i) <= 57) digits++;
  return digits >= 4 && digits < run.length;
}

/** Values in text outside quotes and JSON (every value holds a digit or an `@`). */
function templateValues(text: string, groupName: boolean): string {
  return CANDIDATE.test(text)
    ? text.replace(VALUE_RE, (match: string, ...rest: unknown[]) =>
        placeholderFor(match, groupName, rest.slice(0, PATTERNS.length)),
      )
    : text;
}

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * Index just past the quoted value opening at `i`, or -1 when there is none. A `'` glued to a
 * letter or digit before it is an apostrophe (`can't`, `users'`), not a quote. `\` escapes.
 */
function quotedEnd(text: string, i: number): number {
  const q = text.charCodeAt(i);
  if (q === 39 && i > 0 && isAlnum(text.charCodeAt(i - 1))) return -1;
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 92) j++;
    else if (c === q) return j + 1;
  }
  return -1;
}

/** Index just past the JSON object opening at `i` (balanced and parseable), or -1. */
function jsonObjectEnd(text: string, i: number): number {
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 34) {
      const end = quotedEnd(text, j);
      if (end < 0) return -1;
      j = end - 1;
    } else if (c === 123 || c === 91) {
      depth++;
    } else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return isJson(text.slice(i, j + 1)) ? j + 1 : -1;
    }
  }
  return -1;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A valid JSON object with its keys kept and its string and number values replaced. */
function templateJson(json: string): string {
  let out = '';
  let i = 0;
  while (i < json.length) {
    const c = json.charCodeAt(i);
    if (c === 34) {
      const end = quotedEnd(json, i);
      let k = end;
      while (
        k < json.length &&
        (json.charCodeAt(k) === 32 ||
          json.charCodeAt(k) === 9 ||
          json.charCodeAt(k) === 10 ||
          json.charCodeAt(k) === 13)
      )
        k++;
      out += json.charCodeAt(k) === 58 /* : */ ? json.slice(i, end) : '<str>';
      i = end;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      let end = i + 1;
      while (end < json.length && /[0-9.eE+-]/.test(json[end])) end++;
      out += '<num>';
      i = end;
    } else {
      out += json[i];
      i++;
    }
  }
  return out;
}

/** Failed JSON attempts per message: each costs a scan, and a long odd message must stay linear. */
const MAX_JSON_MISSES = 4;

export interface TemplateOptions {
  /**
   * The template names a log or exception group (groupTemplate), whose id hashes only the words:
   * `job 12345678 queued` and `job 9f3a2b1c queued` are one group, and a hex id with no letter in
   * it reads as a number. So that the group is named the same whichever of them came first, a bare
   * run of hex digits is `<num>` here, like a run of digits (`0x1f` stays `<hex>`: its prefix is
   * in every member). Off elsewhere: a JSON statement's template is hashed into its group id
   * (spanSystem), and key-value names keep `<hex>`.
   */
  groupName?: boolean;
}

/** The template of a message (see the file comment). */
export function templateMessage(text: string, options: TemplateOptions = {}): string {
  const groupName = options.groupName === true;
  let out = '';
  let plain = 0;
  let i = 0;
  let jsonMisses = 0;
  // A quote with no closing quote after it: later ones of that kind are not searched again.
  const unclosed = new Set<number>();
  while (i < text.length) {
    const c = text.charCodeAt(i);
    let end = -1;
    let replacement = '';
    if ((c === 34 || c === 39 || c === 96) && !unclosed.has(c)) {
      end = quotedEnd(text, i);
      if (end < 0 && (c !== 39 || i === 0 || !isAlnum(text.charCodeAt(i - 1)))) unclosed.add(c);
      replacement = '<str>';
    } else if (c === 123 && jsonMisses < MAX_JSON_MISSES) {
      end = jsonObjectEnd(text, i);
      if (end > 0) replacement = templateJson(text.slice(i, end));
      else jsonMisses++;
    }
    if (end < 0) {
      i++;
      continue;
    }
    out += templateValues(text.slice(plain, i), groupName) + replacement;
    i = plain = end;
  }
  return out + templateValues(text.slice(plain), groupName);
}

/** A placeholder the templates write (`<num>`, `<str>`, ..., `<*>`). */
const PLACEHOLDER_RE = /<[a-z*]+>/g;
const ALNUM_RE = /[A-Za-z0-9]/;
/** A word with punctuation around or an apostrophe in it: `(timeout)`, `failed!`, `can't`. */
const PUNCTUATED_WORD_RE = /^[([{"'`]*[A-Za-z]+(?:['-][A-Za-z]+)*[)\]}"'`!?]*$/;
/** logfmt `key=value` (reference ingest §2.6 keys: letters, digits and `.`). */
const KEY_VALUE_RE = /^([A-Za-z0-9.]+)=(.*)$/s;
const AROUND_RE = /^([([{"'`]*)(.*?)([)\]}"'`!?.,:]*)$/s;

/** A value that varies within the group: `<url>`, `<path>`, else `<*>`, its punctuation kept. */
function variableText(text: string): string {
  if (!ALNUM_RE.test(text.replace(PLACEHOLDER_RE, ''))) return text;
  const [, before, core, after] = AROUND_RE.exec(text) ?? ['', '', text, ''];
  const placeholder = core.includes('://') ? '<url>' : core.includes('/') ? '<path>' : '<*>';
  return `${before}${placeholder}${after}`;
}

/** A template token that the group id does not hash, as the group's name shows it. */
function skippedToken(token: string): string {
  // Placeholders and punctuation only (`<num>`, `#<num>`, `[<ip>]:<num>`), a JSON object (keys
  // kept by templateJson), or a word with punctuation: kept as they are.
  if (!ALNUM_RE.test(token.replace(PLACEHOLDER_RE, ''))) return token;
  if (token.includes('{') || PUNCTUATED_WORD_RE.test(token)) return token;
  const kv = KEY_VALUE_RE.exec(token);
  if (kv) return `${kv[1]}=${variableText(kv[2])}`;
  return variableText(token);
}

/**
 * A log or exception group's name and the words its id hashes, from the message's template. The
 * id hashes only the words (reference ingest §2.6), so messages that differ in any other token
 * share a group: `slow request to /api/cart` and `... to /api/checkout` are one group. The name
 * must not show one member's text there as if every member had it (the group of four routes was
 * named after the first route seen): a skipped token keeps only what is not variable (placeholders
 * and punctuation, a logfmt key, a word with punctuation, a JSON object's keys) and otherwise
 * becomes `<url>`, `<path>` or `<*>`: `WARN slow request to <path> took <duration>`.
 */
export function groupTemplate(template: string): { words: string[]; name: string } {
  const words: string[] = [];
  let name = '';
  let at = 0;
  for (const t of messageTokens(template)) {
    const text = template.slice(t.start, t.end);
    if (t.word) {
      words.push(text);
      continue;
    }
    const named = skippedToken(text);
    if (named === text) continue;
    name += template.slice(at, t.start) + named;
    at = t.end;
  }
  return { words, name: name + template.slice(at) };
}
