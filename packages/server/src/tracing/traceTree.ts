import type { Span, SpanEvent } from '@lantern/shared';

/**
 * Builds a trace's span tree from its stored rows (reference query §2.8), as a pure function.
 * Events attach to their span (or the root when it is missing); spans whose parent is missing
 * hang off the root; without a root a placeholder root explains the gap. Percent positions and
 * self time are computed over the whole trace.
 */
export interface TraceRow {
  span: Omit<Span, 'children' | 'events' | 'startPct' | 'endPct' | 'durationSelf'>;
  /** Start in ns since the epoch (exact; `span.time` is its RFC 3339 text). */
  startNs: bigint;
  isEvent: boolean;
}

export const MISSING_ROOT_MESSAGE =
  'The span is missing. Make sure to configure the upstream service to report to Lantern, end spans on all conditions, and shut down OpenTelemetry when the app exits.';

export interface TraceTree {
  trace: { id: string; time: string; duration: number };
  root: Span;
  numSpan: number;
}

export function buildTraceTree(traceId: string, rows: readonly TraceRow[]): TraceTree | null {
  if (rows.length === 0) return null;
  let minNs = rows[0].startNs;
  for (const r of rows) if (r.startNs < minNs) minNs = r.startNs;
  // Starts as ns after the trace's first row, in plain numbers: exact for traces shorter than 104
  // days (2^53 ns), and several times faster than BigInt arithmetic over 10,000 spans. Spans live in
  // `list` (every span row, in row order) with their start at the same index in `starts`; the tree
  // is built over indexes, without a Map per span or a tuple per child. A re-sent span (same id)
  // takes the place of the first one in `byId` (and so in the tree), as a Map keeps its first
  // insertion's position.
  const list: Span[] = [];
  const starts: number[] = [];
  const byId = new Map<string, number>();
  const eventRows: TraceRow[] = [];
  let root: Span | undefined;
  let rootIndex = -1;
  for (const row of rows) {
    if (row.isEvent) {
      eventRows.push(row);
      continue;
    }
    const span = treeSpan(row.span);
    if (!span.parentId) {
      root = span;
      rootIndex = list.length;
    }
    byId.set(span.id, list.length);
    list.push(span);
    starts.push(Number(row.startNs - minNs));
  }
  if (!root) {
    root = {
      id: '0',
      traceId,
      projectId: rows[0].span.projectId,
      system: 'funcs:unknown',
      groupId: '0',
      kind: 'internal',
      name: 'unknown',
      displayName: MISSING_ROOT_MESSAGE,
      time: nsToRfc3339(minNs),
      duration: 0,
      durationSelf: 0,
      startPct: 0,
      endPct: 0,
      statusCode: 'unset',
      statusMessage: '',
      attrs: {},
    };
    rootIndex = list.length;
    list.push(root);
    starts.push(0);
  }
  const parentOf = (parentId: string | undefined) => {
    const i = parentId ? byId.get(parentId) : undefined;
    return i === undefined ? rootIndex : i;
  };
  const kids: (number[] | undefined)[] = new Array<number[] | undefined>(list.length);
  for (const i of byId.values()) {
    if (i === rootIndex) continue;
    (kids[parentOf(list[i].parentId)] ??= []).push(i);
  }
  const eventStarts: number[] = [];
  const ownEvents: (number[] | undefined)[] = new Array<number[] | undefined>(list.length);
  const events: SpanEvent[] = [];
  for (const e of eventRows) {
    const owner = parentOf(e.span.parentId);
    (ownEvents[owner] ??= []).push(events.length);
    eventStarts.push(Number(e.startNs - minNs));
    events.push({
      name: e.span.displayName || e.span.eventName || e.span.name,
      time: e.span.time,
      attrs: e.span.attrs,
      system: e.span.system,
      groupId: e.span.groupId,
    });
  }

  let total = 0;
  for (let i = 0; i < list.length; i++) total = Math.max(total, starts[i] + list[i].duration);
  const byStart = (a: number, b: number) => starts[a] - starts[b];
  const byEventStart = (a: number, b: number) => eventStarts[a] - eventStarts[b];
  for (let i = 0; i < list.length; i++) {
    const span = list[i];
    const start = starts[i];
    span.startPct = total > 0 ? Math.min(1, start / total) : 0;
    span.endPct = total > 0 ? Math.min(1, (start + span.duration) / total) : 0;
    const children = kids[i];
    if (children) {
      children.sort(byStart);
      span.children = children.map((c) => list[c]);
      span.durationSelf = coveredTimeLeft(
        start,
        span.duration,
        children.length,
        (k) => starts[children[k]],
        (k) => list[children[k]].duration,
      );
    }
    const own = ownEvents[i];
    if (own) span.events = own.sort(byEventStart).map((e) => events[e]);
  }
  // Depth from the root, iteratively: a deep trace must not overflow the stack.
  const stack: Span[] = [root];
  const levels: number[] = [0];
  while (stack.length) {
    const span = stack.pop()!;
    const level = levels.pop()!;
    span.level = level;
    if (!span.children) continue;
    for (const c of span.children) {
      stack.push(c);
      levels.push(level + 1);
    }
  }
  return {
    trace: { id: traceId, time: nsToRfc3339(minNs), duration: total },
    root,
    numSpan: byId.size + (byId.has(root.id) ? 0 : 1),
  };
}

/**
 * A tree span from a row's span, as one object literal: every span gets the same shape (absent
 * fields are undefined, which JSON leaves out), in the order the answer lists them.
 */
function treeSpan(s: TraceRow['span']): Span {
  return {
    id: s.id,
    parentId: s.parentId,
    traceId: s.traceId,
    standalone: s.standalone,
    projectId: s.projectId,
    system: s.system,
    groupId: s.groupId,
    kind: s.kind,
    name: s.name,
    eventName: s.eventName,
    displayName: s.displayName,
    groupName: s.groupName,
    time: s.time,
    duration: s.duration,
    statusCode: s.statusCode,
    statusMessage: s.statusMessage,
    attrs: s.attrs,
    links: s.links,
    durationSelf: s.duration,
    startPct: 0,
    endPct: 0,
    children: undefined,
    events: undefined,
    level: undefined,
  };
}

/**
 * Duration minus the union of child intervals clipped to the span; never negative. Starts are in
 * ns from any common origin; `children` are sorted by start.
 */
export function selfTime(
  start: number,
  duration: number,
  children: readonly (readonly [start: number, duration: number, ...rest: unknown[]])[],
): number {
  return coveredTimeLeft(
    start,
    duration,
    children.length,
    (k) => children[k][0],
    (k) => children[k][1],
  );
}

/** selfTime over `n` children given by their start and duration at each position. */
function coveredTimeLeft(
  start: number,
  duration: number,
  n: number,
  startAt: (k: number) => number,
  durationAt: (k: number) => number,
): number {
  const end = start + duration;
  let covered = 0;
  let curS = -Infinity;
  let curE = -Infinity;
  for (let k = 0; k < n; k++) {
    const cs = startAt(k);
    const s = Math.max(cs, start);
    const e = Math.min(cs + durationAt(k), end);
    if (e <= s) continue;
    if (s > curE) {
      if (curE > curS) covered += curE - curS;
      curS = s;
      curE = e;
    } else if (e > curE) curE = e;
  }
  if (curE > curS) covered += curE - curS;
  return Math.max(0, duration - covered);
}

/** RFC 3339 with nanoseconds when non-zero, always UTC. */
export function nsToRfc3339(ns: bigint): string {
  const ms = ns / 1_000_000n;
  const base = new Date(Number(ms)).toISOString().slice(0, 19);
  const frac = (ns % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return `${base}${frac ? '.' + frac : ''}Z`;
}

/**
 * nsToRfc3339 for the engine's decimal text of the same ns (`toUnixTimestamp64Nano`), for many rows
 * in a row: the date and time of day are formatted once per second (a trace's rows mostly share
 * theirs), the fraction is cut out of the text.
 */
export function createTimeFormatter(): (ns: string, nsValue: bigint) => string {
  let second = '';
  let base = '';
  return (ns, nsValue) => {
    if (ns.length <= 9 || !/^[1-9]\d*$/.test(ns)) return nsToRfc3339(nsValue);
    const s = ns.slice(0, -9);
    if (s !== second) {
      second = s;
      base = new Date(Number(s) * 1000).toISOString().slice(0, 19);
    }
    let end = ns.length;
    while (end > s.length && ns.charCodeAt(end - 1) === 48) end--;
    return end > s.length ? `${base}.${ns.slice(s.length, end)}Z` : `${base}Z`;
  };
}
