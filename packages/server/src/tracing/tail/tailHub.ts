import type { Logger } from 'pino';
import type { TelemetryStore } from '../../storage/telemetry';
import type { CompiledQuery } from '../query/compile';
import type { TracingStore } from '../tracing.store';
import {
  cursorAtEnd,
  cursorLess,
  engineNowSql,
  formatCursor,
  matchesSql,
  probeSql,
  rowCursor,
  type Cursor,
  type MatchRow,
  type ProbeRow,
} from './tailSql';

/**
 * The open live tails of this server and the one poll that feeds them (docs/decisions/live-tail.md).
 * Every `pollMs` one query asks, for every project with an open tail, whether rows arrived and
 * settled since the earliest position of its tails (`probeSql`); only for such a project does each
 * of its tails read its matching rows (`matchesSql`) and the rows' pages (the span list's shape).
 * A tail's position then moves to the window's end: rows it passed over did not match, or were
 * sent, or went over its rate and were counted as skipped. Nothing is buffered: a client that
 * reads too slowly has rows skipped too.
 */

export interface TailLimits {
  maxStreams: number;
  maxStreamsPerUser: number;
  maxRowsPerSecond: number;
  pollMs: number;
  settleMs: number;
  heartbeatMs: number;
}

/** Where a tail's events go (an HTTP response). */
export interface TailSink {
  /** Writes SSE text. */
  write(text: string): void;
  /** Bytes written but not yet taken by the client. */
  backlog(): number;
  end(): void;
}

export interface TailStream {
  userId: number;
  /** The session token it was opened with: sign-out closes it. */
  session: string;
  projectId: number;
  systems: readonly string[];
  q: CompiledQuery;
  pos: Cursor;
  sink: TailSink;
}

/** A client this far behind gets no more rows until it catches up (they are counted as skipped). */
const MAX_BACKLOG_BYTES = 1024 * 1024;
/** A row listed before its page could be read is waited for this long, then counted as skipped. */
const PAGE_WAIT_US = 30_000_000n;

export interface TailHubDeps {
  store: TelemetryStore;
  spans: TracingStore;
  limits: TailLimits;
  /** Whether a session token still signs someone in (checked with each heartbeat). */
  sessionAlive(token: string): Promise<boolean>;
  log: Pick<Logger, 'warn'>;
}

export function createTailHub(deps: TailHubDeps) {
  const { limits } = deps;
  const streams = new Set<TailStream>();
  let timer: NodeJS.Timeout | null = null;
  let lastHeartbeat = Date.now();
  let closed = false;
  const perTick = Math.max(1, Math.round((limits.maxRowsPerSecond * limits.pollMs) / 1000));

  const close = (s: TailStream) => {
    if (!streams.delete(s)) return;
    s.sink.end();
  };

  const schedule = () => {
    if (timer || closed || streams.size === 0) return;
    timer = setTimeout(() => {
      void tick().finally(() => {
        timer = null;
        schedule();
      });
    }, limits.pollMs);
  };

  async function tick(): Promise<void> {
    try {
      if (Date.now() - lastHeartbeat >= limits.heartbeatMs) await heartbeat();
      await poll();
    } catch (err) {
      deps.log.warn({ err }, 'live tail poll failed');
    }
  }

  async function heartbeat() {
    lastHeartbeat = Date.now();
    const open = [...streams];
    const alive = await Promise.all(open.map((s) => deps.sessionAlive(s.session).catch(() => true)));
    open.forEach((s, i) => (alive[i] ? s.sink.write(': heartbeat\n\n') : close(s)));
  }

  async function poll() {
    const from = new Map<number, bigint>();
    for (const s of streams) from.set(s.projectId, minUs(from.get(s.projectId), s.pos.us));
    if (from.size === 0) return;
    const probed = await deps.store.query<ProbeRow>(probeSql(from, limits.settleMs));
    for (const p of probed) {
      const window = { endUs: BigInt(p.end_us), tminUs: BigInt(p.tmin), tmaxUs: BigInt(p.tmax) };
      const tails = [...streams].filter((s) => s.projectId === Number(p.project_id));
      await Promise.all(tails.map((s) => feed(s, window)));
    }
  }

  /** Sends a tail its rows of the window, then moves it to the window's end. */
  async function feed(s: TailStream, w: { endUs: bigint; tminUs: bigint; tmaxUs: bigint }) {
    const end = cursorAtEnd(w.endUs);
    if (!cursorLess(s.pos, end)) return;
    let rows: MatchRow[];
    try {
      rows = await deps.store.query<MatchRow>(
        matchesSql({ projectId: s.projectId, systems: s.systems, q: s.q, after: s.pos, limit: perTick, ...w }),
      );
    } catch (err) {
      deps.log.warn({ err }, 'live tail read failed');
      return;
    }
    if (!streams.has(s)) return;
    const total = rows.length ? Number(rows[0].total) : 0;
    const pages = rows.length ? await deps.spans.spansByIds(s.projectId, rows) : [];
    if (!streams.has(s)) return;
    const byKey = new Map(pages.map((span) => [`${span.traceId}/${span.id}`, span]));
    let last = s.pos;
    let waiting = false;
    let skipped = total - rows.length;
    for (const r of rows) {
      const c = rowCursor(r);
      const span = byKey.get(`${c.traceHex}/${r.id}`);
      // Its page not readable yet (a remote store commits the two tables apart): wait for it a while.
      if (!span && c.us + PAGE_WAIT_US > w.endUs) {
        waiting = true;
        skipped -= total - rows.length;
        break;
      }
      if (!span || s.sink.backlog() > MAX_BACKLOG_BYTES) skipped++;
      else s.sink.write(`event: row\nid: ${formatCursor(c)}\ndata: ${JSON.stringify(span)}\n\n`);
      last = c;
    }
    const next = waiting ? last : end;
    if (skipped > 0)
      s.sink.write(`event: skipped\nid: ${formatCursor(next)}\ndata: ${JSON.stringify({ skipped })}\n\n`);
    else if (next !== s.pos) s.sink.write(`id: ${formatCursor(next)}\n\n`);
    s.pos = next;
  }

  return {
    /** Null when one more tail is allowed for this user, else why not. */
    refusal(userId: number): string | null {
      if (streams.size >= limits.maxStreams)
        return `This server has ${limits.maxStreams} live tails open, its limit (tail.max_streams). Try again later.`;
      const mine = [...streams].filter((s) => s.userId === userId).length;
      if (mine >= limits.maxStreamsPerUser)
        return `You have ${mine} live tails open, the limit (tail.max_streams_per_user). Close one to open another.`;
      return null;
    },
    /** Where a new tail starts: after every settled row (what arrives from now on). */
    async startCursor(): Promise<Cursor> {
      const [row] = await deps.store.query<{ now: string }>(engineNowSql);
      return cursorAtEnd(BigInt(row.now) - BigInt(limits.settleMs) * 1000n);
    },
    open(s: TailStream) {
      streams.add(s);
      schedule();
    },
    close,
    /** Closes the tails opened with a session (sign-out). */
    closeSession(token: string) {
      for (const s of [...streams]) if (s.session === token) close(s);
    },
    /** Ends every tail (the server is stopping). */
    closeAll() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const s of [...streams]) close(s);
    },
    get size() {
      return streams.size;
    },
  };
}

export type TailHub = ReturnType<typeof createTailHub>;

const minUs = (a: bigint | undefined, b: bigint) => (a === undefined || b < a ? b : a);
