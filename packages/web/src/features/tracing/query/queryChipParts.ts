import { parseQuery, type QueryPart } from '@lantern/shared';

/**
 * The chips of a query: one per ` | ` part, with the parser's diagnostic for that part (the same
 * parser the server runs), or the server's own error and disabled flag for the part at the same
 * position once it answered (spec: per-part errors from the parser diagnostics).
 */
export interface ChipPart {
  text: string;
  keyword: string;
  rest: string;
  error?: string;
  disabled: boolean;
}

export function chipParts(query: string, server?: QueryPart[]): ChipPart[] {
  return parseQuery(query).map((p, i) => {
    const m = /^(where|group\s+by)\s+(.*)$/is.exec(p.text);
    const fromServer = server?.[i] && server[i].query.trim() === p.text ? server[i] : undefined;
    const error = p.error ? errorText(p.text, p.start, p.error) : fromServer?.error || undefined;
    return {
      text: p.text,
      keyword: m ? m[1].toLowerCase().replace(/\s+/, ' ') : '',
      rest: m ? m[2] : p.text,
      error,
      disabled: fromServer?.disabled ?? false,
    };
  });
}

function errorText(text: string, start: number, d: { message: string; start: number; end: number }): string {
  const at = d.start - start;
  const near = text.slice(Math.max(0, at), Math.max(at, d.end - start));
  return near && !d.message.includes(near) ? `${d.message} (at "${near}")` : d.message;
}
