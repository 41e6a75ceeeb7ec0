/**
 * The body of Vector's `http` sink with `encoding.codec = "json"`: a stream of JSON objects, one
 * per record. Vector frames them as a JSON array with the default framing and one per line with
 * `framing.method = "newline_delimited"`; objects that are concatenated (`{…}{…}`) or
 * pretty-printed over several lines are read too. Each top-level object, and each element of a
 * top-level array, is one record. A record that is not a JSON object is dropped and counted (the
 * others are still stored), as OTLP partial success does; produceVector refuses a body with no
 * good record and some bad ones.
 *
 * The values are split by scanning brackets outside strings (no recursion, so any depth is safe to
 * scan), and each is parsed with JSON.parse only when nested at most MAX_DEPTH levels. Text that
 * is not a value, or a value left open, is dropped up to the end of its line, so one broken line
 * of NDJSON costs that line only.
 */
export interface VectorBatch {
  events: Record<string, unknown>[];
  rejected: number;
  rejectedMessage: string;
}

/** Levels of `{`/`[` a record may hold (a top-level array adds one). */
const MAX_DEPTH = 64;

const OBJECT_HINT = 'expected a JSON object (use encoding.codec = "json" in the Vector sink)';

export function parseVectorBody(text: string): VectorBatch {
  const events: Record<string, unknown>[] = [];
  let rejected = 0;
  let rejectedMessage = '';
  const reject = (at: number, why: string, count = 1) => {
    if (rejected === 0) rejectedMessage = `line ${lineOf(text, at)}: ${why}`;
    rejected += count;
  };
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    const value = c === 123 /* { */ || c === 91; /* [ */
    const scan = value ? scanValue(text, i) : null;
    if (scan === null) {
      // Not a JSON object or array here, or one left open: drop the rest of the line.
      reject(i, value ? 'not valid JSON (unterminated)' : 'not valid JSON');
      i = nextLine(text, i);
      continue;
    }
    const start = i;
    i = scan.end;
    const isArray = c === 91;
    if (scan.depth > MAX_DEPTH + (isArray ? 1 : 0)) {
      reject(start, `nested deeper than ${MAX_DEPTH} levels`);
      continue;
    }
    let v: unknown;
    try {
      v = JSON.parse(text.slice(start, scan.end));
    } catch (err) {
      reject(start, `not valid JSON (${(err as Error).message})`);
      continue;
    }
    if (!isArray) {
      events.push(v as Record<string, unknown>);
      continue;
    }
    const elements = v as unknown[];
    for (let k = 0; k < elements.length; k++) {
      const e = elements[k];
      if (e !== null && typeof e === 'object' && !Array.isArray(e)) events.push(e as Record<string, unknown>);
      else reject(start, `array element ${k + 1}: ${OBJECT_HINT}`);
    }
  }
  return { events, rejected, rejectedMessage };
}

/**
 * The end (exclusive) of the object or array starting at `start`, and its deepest nesting; null
 * when it is not closed, or a string in it runs into a line break (JSON strings cannot hold one).
 */
function scanValue(text: string, start: number): { end: number; depth: number } | null {
  let depth = 0;
  let maxDepth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      else if (c === 10 /* \n */) return null;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > maxDepth) maxDepth = depth;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      if (--depth === 0) return { end: i + 1, depth: maxDepth };
    }
  }
  return null;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9 || c === 0xfeff;
}

function nextLine(text: string, i: number): number {
  const nl = text.indexOf('\n', i);
  return nl === -1 ? text.length : nl + 1;
}

/** The 1-based line of offset `at` (only for the first rejection's message). */
function lineOf(text: string, at: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
