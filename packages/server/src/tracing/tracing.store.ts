import type { Span } from '@lantern/shared';
import { param, sql, uuidToTraceId } from '../storage/sql';
import type { SpanData, TelemetryStore } from '../storage/telemetry';
import { createTimeFormatter, type TraceRow } from './traceTree';

/** Reads of the full-row table (`spans_data`) for the trace and span pages. */
const MAX_TRACE_ROWS = 10_000;
const MAX_SPAN_EVENTS = 100;

interface DataRow {
  trace_uuid: string;
  id: string;
  parent_id: string;
  time_ns: string;
  is_event: boolean;
  project_id: number;
  data: string;
}

export function createTracingStore(store: TelemetryStore) {
  return {
    async traceRows(projectId: number, traceId: string): Promise<TraceRow[]> {
      // The engine writes the rows as one JSON array of `[id, parent_id, time_ns, is_event, data]`,
      // with each row's data JSON as it is stored, and hands the text over unescaped: one JSON.parse
      // reads them all, where a row per object with data as escaped text took a parse per row and
      // another per data (about half the reading time of a 10,000-row trace). The trace and project
      // are the ones asked for. Rows of the same time come by id, the same on every read.
      const rows = await store.queryText(sql`
        SELECT concat('[', arrayStringConcat(arrayMap(r -> r.3, arraySort(r -> (r.1, r.2), groupArray((time, id, row)))), ','), ']') AS rows
        FROM (
          SELECT time, id, concat('["', toString(id), '","', toString(parent_id), '","', toString(toUnixTimestamp64Nano(time)), '",', if(is_event, '1', '0'), ',', data, ']') AS row
          FROM spans_data
          WHERE project_id = ${param.uint32(projectId)} AND trace_id = ${param.traceId(traceId)}
          ORDER BY time, id
          LIMIT ${param.uint32(MAX_TRACE_ROWS)})`);
      const time = createTimeFormatter();
      const traceRows = (JSON.parse(rows) as [string, string, string, 0 | 1, SpanData][]).map(
        ([id, parentId, timeNs, isEvent, d]) =>
          toTraceRow(id, parentId, timeNs, isEvent === 1, d, traceId, projectId, time),
      );
      await nameGroups(store, projectId, traceRows);
      return traceRows;
    },

    /** One span with up to 100 of its events, or null. */
    async span(projectId: number, traceId: string, spanId: bigint): Promise<Span | null> {
      const rows = await store.query<DataRow>(sql`
        SELECT toString(trace_id) AS trace_uuid, id, parent_id, toUnixTimestamp64Nano(time) AS time_ns, is_event, project_id, data
        FROM spans_data
        WHERE project_id = ${param.uint32(projectId)} AND trace_id = ${param.traceId(traceId)}
          AND (id = ${param.uint64(spanId)} OR (is_event AND parent_id = ${param.uint64(spanId)}))
        ORDER BY is_event, time
        LIMIT ${param.uint32(MAX_SPAN_EVENTS + 1)}`);
      // A span with the events under it, or a log or event row opened by its own id (no events of its own).
      const spanRow =
        rows.find((r) => !r.is_event && r.id === spanId.toString()) ??
        rows.find((r) => r.is_event && r.id === spanId.toString());
      if (!spanRow) return null;
      const { span } = toStoredTraceRow(spanRow);
      const events = spanRow.is_event
        ? []
        : rows.filter((r) => r.is_event && r.parent_id === spanRow.id).map(toStoredTraceRow);
      const name = TEMPLATE_NAMED.test(span.system)
        ? await groupName(store, projectId, spanRow, span)
        : span.displayName;
      return {
        ...span,
        ...(name !== undefined ? { groupName: name } : {}),
        durationSelf: span.duration,
        startPct: 0,
        endPct: 0,
        ...(events.length ? { events: events.map(toEvent) } : {}),
      };
    },

    /**
     * Full spans (with up to 100 events each) for a page of (trace, span) ids, in the given order,
     * each with its group's name when the page read it from spans_index (`group_name`).
     */
    async spansByIds(
      projectId: number,
      ids: readonly { trace_uuid: string; id: string; group_name?: string }[],
    ): Promise<Span[]> {
      if (ids.length === 0) return [];
      const spanIds = sql`(SELECT toUInt64(arrayJoin(${param.strings(ids.map((r) => r.id))})))`;
      const rows = await store.query<DataRow>(sql`
        SELECT toString(trace_id) AS trace_uuid, id, parent_id, toUnixTimestamp64Nano(time) AS time_ns, is_event, project_id, data
        FROM spans_data
        WHERE project_id = ${param.uint32(projectId)} AND trace_id IN (SELECT arrayJoin(arrayMap(x -> toUUID(x), ${param.strings([...new Set(ids.map((r) => r.trace_uuid))])})))
          AND (id IN ${spanIds} OR (is_event AND parent_id IN ${spanIds}))
        ORDER BY time
        LIMIT ${param.uint32(ids.length * (MAX_SPAN_EVENTS + 1))}`);
      // Every row asked for by its own id is a row of the answer: spans, and logs and events listed
      // as themselves; a span also carries the events under it.
      const spans = new Map<string, Span>();
      const events = new Map<string, Span>();
      for (const r of rows)
        (r.is_event ? events : spans).set(`${r.trace_uuid}/${r.id}`, {
          ...toStoredTraceRow(r).span,
          durationSelf: 0,
          startPct: 0,
          endPct: 0,
        });
      for (const r of rows) {
        if (!r.is_event) continue;
        const owner = spans.get(`${r.trace_uuid}/${r.parent_id}`);
        if (owner && (owner.events?.length ?? 0) < MAX_SPAN_EVENTS)
          (owner.events ??= []).push(toEvent(toStoredTraceRow(r)));
      }
      return ids.flatMap((r) => {
        const s = spans.get(`${r.trace_uuid}/${r.id}`) ?? events.get(`${r.trace_uuid}/${r.id}`);
        if (!s) return [];
        return [{ ...s, ...(r.group_name !== undefined ? { groupName: r.group_name } : {}), durationSelf: s.duration }];
      });
    },

    /** Any row of the trace in one of `projectIds` (the user's projects), to find where it lives. */
    async findTrace(projectIds: number[], traceId: string) {
      const rows = await store.query<{ project_id: number; id: string; is_event: boolean; standalone: boolean }>(sql`
        SELECT project_id, id, is_event, JSONExtractBool(data, 'standalone') AS standalone
        FROM spans_data
        WHERE project_id IN ${param.uint32s(projectIds)} AND trace_id = ${param.traceId(traceId)}
        ORDER BY is_event, parent_id != 0, time
        LIMIT 1`);
      const r = rows[0];
      return r ? { projectId: Number(r.project_id), traceId, id: r.id, standalone: Boolean(r.standalone) } : null;
    },
  };
}

export type TracingStore = ReturnType<typeof createTracingStore>;

/**
 * Systems whose groups are named by a template (ingest: a db span's statement, a log's message, an
 * exception's): a row's own text is not its group's name. Elsewhere every row of a group is named
 * as its group (normalize/displayName.ts), so the span endpoint reads spans_index only for these.
 */
const TEMPLATE_NAMED = /^(log|db):/;

/**
 * Sets `groupName` on the trace's spans of template-named groups (the tree's rows; events are
 * listed under their span by their own text), as the span endpoint names them: their rows in
 * spans_index, read by the index's key (project, system, group, time) within the trace's time
 * and picked by id, in one query. Other spans are named as their group already (displayName).
 */
async function nameGroups(store: TelemetryStore, projectId: number, rows: TraceRow[]): Promise<void> {
  const named = rows.filter((r) => !r.isEvent && TEMPLATE_NAMED.test(r.span.system));
  if (named.length === 0) return;
  let min = named[0].startNs;
  let max = min;
  for (const r of named) {
    if (r.startNs < min) min = r.startNs;
    if (r.startNs > max) max = r.startNs;
  }
  const found = await store.query<{ id: string; display_name: string }>(sql`
    SELECT toString(id) AS id, display_name
    FROM spans_index
    WHERE project_id = ${param.uint32(projectId)}
      AND system IN ${param.strings([...new Set(named.map((r) => r.span.system))])}
      AND group_id IN (SELECT toUInt64(arrayJoin(${param.strings([...new Set(named.map((r) => r.span.groupId))])})))
      AND time >= fromUnixTimestamp64Micro(${param.int64(min / 1000n)}, 'UTC')
      AND time <= fromUnixTimestamp64Micro(${param.int64(max / 1000n)}, 'UTC')
      AND id IN (SELECT toUInt64(arrayJoin(${param.strings(named.map((r) => r.span.id))})))`);
  const names = new Map(found.map((r) => [r.id, r.display_name]));
  for (const r of named) {
    const name = names.get(r.span.id);
    if (name !== undefined) r.span.groupName = name;
  }
}

/**
 * The group's name of a row read from spans_data, or undefined. spans_data holds the row's own
 * text (`displayName`); spans_index holds its group's name in `display_name` (a log's or a db
 * span's template, what the group list shows). The row is found by the index's sort key (project,
 * system, group, time to the microsecond) and its id: one granule.
 */
async function groupName(
  store: TelemetryStore,
  projectId: number,
  row: DataRow,
  span: Pick<Span, 'system' | 'groupId'>,
): Promise<string | undefined> {
  const found = await store.query<{ display_name: string }>(sql`
    SELECT display_name
    FROM spans_index
    WHERE project_id = ${param.uint32(projectId)} AND system = ${param.string(span.system)}
      AND group_id = ${param.uint64(BigInt(span.groupId))}
      AND time = fromUnixTimestamp64Micro(${param.int64(BigInt(row.time_ns) / 1000n)}, 'UTC')
      AND id = ${param.uint64(BigInt(row.id))}
    LIMIT 1`);
  return found[0]?.display_name;
}

const toEvent = (e: TraceRow) => ({
  name: e.span.displayName,
  time: e.span.time,
  attrs: e.span.attrs,
  system: e.span.system,
  groupId: e.span.groupId,
});

const toStoredTraceRow = (r: DataRow) =>
  toTraceRow(
    r.id,
    r.parent_id,
    r.time_ns,
    Boolean(r.is_event),
    JSON.parse(r.data) as SpanData,
    uuidToTraceId(r.trace_uuid),
    Number(r.project_id),
    createTimeFormatter(),
  );

/** One object literal per row: every row's span gets the same shape (absent fields undefined, which JSON leaves out). */
function toTraceRow(
  id: string,
  parentId: string,
  timeNs: string,
  isEvent: boolean,
  d: SpanData,
  traceId: string,
  projectId: number,
  time: (ns: string, nsValue: bigint) => string,
): TraceRow {
  const startNs = BigInt(timeNs);
  return {
    startNs,
    isEvent,
    span: {
      id,
      parentId: parentId !== '0' ? parentId : undefined,
      traceId,
      standalone: d.standalone ? true : undefined,
      projectId,
      system: d.system,
      groupId: d.groupId,
      kind: d.kind,
      name: d.name,
      eventName: d.eventName ? d.eventName : undefined,
      displayName: d.displayName,
      groupName: undefined,
      time: time(timeNs, startNs),
      duration: d.durationNs,
      statusCode: d.statusCode,
      statusMessage: d.statusMessage,
      attrs: d.attrs,
      links: d.links.length ? d.links : undefined,
    },
  };
}
