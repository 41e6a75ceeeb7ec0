import { parseAllDocuments, type Document } from 'yaml';

/** A problem at a place in the YAML text: offsets for the editor, line for people. */
export interface YamlProblem {
  from: number;
  to: number;
  line: number;
  message: string;
}

const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

/** `grid[0].metrics[1]` -> ['grid', 0, 'metrics', 1]. */
export function parsePath(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]);
  return out;
}

/** The YAML's own syntax errors, where they are. */
export function syntaxProblems(text: string): YamlProblem[] {
  return parseAllDocuments(text).flatMap((doc) =>
    ('errors' in doc ? doc.errors : []).map((e) => {
      const [from, to] = e.pos;
      return {
        from,
        to: Math.max(to, from + 1),
        line: lineOf(text, from),
        message: e.message.split('\n')[0].replace(/:$/, ''),
      };
    }),
  );
}

/** Offset of the start of line `line` (1-based), clamped to the text. */
const lineStart = (text: string, line: number) => {
  let at = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf('\n', at);
    if (next === -1) return at;
    at = next + 1;
  }
  return at;
};

/**
 * The server's refusal (`path: message; path: message`, dashboard YAML import) placed at the
 * nodes it names; one without a path goes to the line it names (`... at line 3, column 5`, the
 * YAML parser's words), else on the first line.
 */
export function serverProblems(text: string, message: string): YamlProblem[] {
  const docs = parseAllDocuments(text);
  const doc = docs.find((d): d is Document.Parsed => 'contents' in d && d.contents !== null);
  return message.split('; ').map((part) => {
    const m = /^([\w.[\]-]+): (.*)$/.exec(part);
    let range: [number, number] = [0, Math.max(1, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'))];
    const at = /at line (\d+), column (\d+)/.exec(part);
    if (at) {
      const from = Math.min(lineStart(text, Number(at[1])) + Number(at[2]) - 1, text.length);
      range = [from, from + 1];
    }
    if (m && doc) {
      const path = parsePath(m[1]);
      for (let n = path.length; n > 0; n--) {
        const node = doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
        const key = n === path.length ? findKey(doc, path) : undefined;
        const r = key ?? node?.range;
        if (r) {
          range = [r[0], Math.max(r[1], r[0] + 1)];
          break;
        }
      }
    }
    return { from: range[0], to: range[1], line: lineOf(text, range[0]), message: part };
  });
}

/** The key node of the last path segment (an unknown key has no value worth pointing at). */
function findKey(doc: Document.Parsed, path: (string | number)[]): [number, number] | undefined {
  const parent = doc.getIn(path.slice(0, -1), true) as
    { items?: { key?: { value?: unknown; range?: [number, number, number] } }[] } | undefined;
  const last = path[path.length - 1];
  const pair = parent?.items?.find((p) => p.key?.value === last);
  return pair?.key?.range ? [pair.key.range[0], pair.key.range[1]] : undefined;
}
