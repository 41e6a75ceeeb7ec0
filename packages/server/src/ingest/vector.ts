import { jsonNestingDepth } from './normalize/jsonDepth';

/**
 * The body Vector's `http` sink sends with `encoding.codec = "json"` and
 * `framing.method = "newline_delimited"`: one JSON object per line. Lines that are not JSON
 * objects are dropped and counted (the others are still stored), as OTLP partial success does.
 */
export interface VectorBatch {
  events: Record<string, unknown>[];
  rejected: number;
  rejectedMessage: string;
}

const MAX_LINE_DEPTH = 64;

export function parseVectorBody(text: string): VectorBatch {
  const events: Record<string, unknown>[] = [];
  let rejected = 0;
  let rejectedMessage = '';
  const reject = (line: number, why: string) => {
    if (rejected++ === 0) rejectedMessage = `line ${line}: ${why}`;
  };
  let lineNo = 0;
  for (const raw of text.split('\n')) {
    lineNo++;
    const line = raw.trim();
    if (line === '') continue;
    if (jsonNestingDepth(line) > MAX_LINE_DEPTH) {
      reject(lineNo, `nested deeper than ${MAX_LINE_DEPTH} levels`);
      continue;
    }
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (err) {
      reject(lineNo, `not valid JSON (${(err as Error).message})`);
      continue;
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v)) {
      reject(lineNo, 'expected a JSON object (use encoding.codec = "json" and framing.method = "newline_delimited")');
      continue;
    }
    events.push(v as Record<string, unknown>);
  }
  return { events, rejected, rejectedMessage };
}
