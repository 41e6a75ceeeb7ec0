import { ErrorBody, Span, TailSkipped, tailRoutes } from '@lantern/shared';
import { useEffect, useState } from 'react';
import { apiUrl } from '../../../../lib/api/api';

/** Rows a live list keeps (newest first); older ones drop off its end. */
export const LIVE_ROWS_KEPT = 200;

export interface LiveTail {
  /** Newest first, at most LIVE_ROWS_KEPT. */
  rows: Span[];
  /** Rows received since the tail was switched on. */
  received: number;
  /** Rows the server skipped past its rate (tail.max_rows_per_second). */
  skipped: number;
  state: 'connecting' | 'live' | 'reconnecting' | 'refused';
  /** Why the server refused the tail (429 too many tails, 400 a bad query). */
  error?: string;
}

const INITIAL: LiveTail = { rows: [], received: 0, skipped: 0, state: 'connecting' };

/**
 * The live tail of a project for systems and a query (shared tailRoutes): an EventSource, which
 * reconnects by itself and sends the last cursor as Last-Event-ID, so the server resumes with
 * nothing missed and nothing twice. New systems or a new query start a new tail.
 */
export function useLiveTail(projectId: number, systems: readonly string[], query: string): LiveTail {
  const systemsKey = systems.join('\n');
  // The state of one tail: new inputs read as a new tail's start until its first event.
  const key = `${projectId}\n${query}\n${systemsKey}`;
  const [tail, setTail] = useState<LiveTail & { key: string }>({ ...INITIAL, key });
  useEffect(() => {
    const update = (f: (t: LiveTail) => Partial<LiveTail>) =>
      setTail((prev) => {
        const t = prev.key === key ? prev : { ...INITIAL, key };
        return { ...t, ...f(t) };
      });
    const url = apiUrl(tailRoutes.tracingTail, {
      params: { projectId },
      query: { system: systemsKey ? systemsKey.split('\n') : undefined, query: query || undefined },
    });
    const source = new EventSource(url);
    let closed = false;
    source.addEventListener('open', () => update(() => ({ state: 'live' })));
    source.addEventListener('row', (e) => {
      const span = Span.parse(JSON.parse((e as MessageEvent<string>).data));
      update((t) => ({ rows: [span, ...t.rows].slice(0, LIVE_ROWS_KEPT), received: t.received + 1 }));
    });
    source.addEventListener('skipped', (e) => {
      const { skipped } = TailSkipped.parse(JSON.parse((e as MessageEvent<string>).data));
      update((t) => ({ skipped: t.skipped + skipped }));
    });
    source.addEventListener('error', () => {
      if (source.readyState !== EventSource.CLOSED) return update(() => ({ state: 'reconnecting' }));
      // Refused (an EventSource does not show the answer): ask once more to read why.
      void fetch(url, { credentials: 'same-origin' }).then(async (res) => {
        const body = res.ok ? undefined : ErrorBody.safeParse(await res.json().catch(() => null));
        if (res.ok) await res.body?.cancel();
        if (closed) return;
        const message = body?.success
          ? body.data.message
          : res.ok
            ? 'The live tail lost its connection: press Stop live, then Live, to start it again.'
            : `The live tail stopped (HTTP ${res.status}).`;
        update(() => ({ state: 'refused', error: message }));
      });
    });
    return () => {
      closed = true;
      source.close();
    };
  }, [key, projectId, systemsKey, query]);
  return tail.key === key ? tail : INITIAL;
}
