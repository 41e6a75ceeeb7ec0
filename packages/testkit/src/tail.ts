import { request, type IncomingMessage } from 'node:http';
import { Span, TailSkipped } from '@lantern/shared';

/** One Server-Sent Event of a live tail (shared tailRoutes), as a client reads it. */
export interface TailEvent {
  event: string;
  id: string;
  data: string;
}

/**
 * A live tail opened over HTTP (`GET /api/v1/tracing/:projectId/tail`), read as a browser's
 * EventSource reads it: events (`row`, `skipped`), the last event id (also from an `id:` alone),
 * comments counted. `lastId` is what a reconnect would send as Last-Event-ID.
 */
export interface OpenTail {
  status: number;
  /** The error body when the tail was refused. */
  error?: { code: string; message: string };
  rows: { id: string; span: Span }[];
  skipped: number;
  comments: number;
  lastId: string;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  /** Waits (polling) until `check` holds or `timeoutMs` passes; throws then. */
  until(check: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): void;
}

export async function openTail(
  baseUrl: string,
  cookie: string,
  opts: { projectId?: number; system?: string[]; query?: string; lastEventId?: string } = {},
): Promise<OpenTail> {
  const qs = new URLSearchParams();
  for (const s of opts.system ?? []) qs.append('system', s);
  if (opts.query) qs.set('query', opts.query);
  // node:http, one connection per tail: closing it closes the socket (an aborted fetch left the
  // server waiting for connections of undici's pool at shutdown).
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(
      `${baseUrl}/api/v1/tracing/${opts.projectId ?? 1}/tail?${qs}`,
      { agent: false, headers: { cookie, ...(opts.lastEventId ? { 'last-event-id': opts.lastEventId } : {}) } },
      resolve,
    );
    req.on('error', reject);
    req.end();
  });
  const tail: OpenTail = {
    status: res.statusCode ?? 0,
    rows: [],
    skipped: 0,
    comments: 0,
    lastId: opts.lastEventId ?? '',
    ended: Promise.resolve(),
    async until(check, what, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`live tail: timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => void res.destroy(),
  };
  if (res.statusCode !== 200) {
    let body = '';
    for await (const chunk of res) body += String(chunk);
    tail.error = JSON.parse(body) as { code: string; message: string };
    return tail;
  }
  const apply = (e: TailEvent) => {
    if (e.event === 'row') tail.rows.push({ id: e.id, span: Span.parse(JSON.parse(e.data)) });
    if (e.event === 'skipped') tail.skipped += TailSkipped.parse(JSON.parse(e.data)).skipped;
  };
  tail.ended = (async () => {
    const decoder = new TextDecoder();
    let buf = '';
    let event = { event: 'message', id: '', data: '' };
    let hasId = false;
    try {
      for await (const chunk of res as AsyncIterable<Buffer>) {
        buf += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = buf.indexOf('\n')) !== -1) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (line === '') {
            if (hasId) tail.lastId = event.id;
            if (event.data !== '') apply(event);
            event = { event: 'message', id: '', data: '' };
            hasId = false;
          } else if (line.startsWith(':')) tail.comments++;
          else {
            const colon = line.indexOf(':');
            const field = line.slice(0, colon);
            const value = line.slice(colon + 1).replace(/^ /, '');
            if (field === 'event') event.event = value;
            if (field === 'data') event.data += event.data ? `\n${value}` : value;
            if (field === 'id') {
              event.id = value;
              hasId = true;
            }
          }
        }
      }
    } catch {
      // closed by close(), or by the server
    }
  })();
  return tail;
}
