import { PROMOTED_ATTRS } from '@lantern/shared';
import type { AttrMap, SpanRow } from './spanRow';
import { traceIdToUuid } from '../sql';
import { encodeAttrs, flat } from './spanAttrEncoding';
import { jsonNumber, jsonText, tsv, tsvJson } from './tsvText';

/**
 * SpanRow -> TabSeparated lines for `spans_index` and `spans_data`. Both the embedded and the
 * remote store insert these bytes, so the two modes share one encoding. TSV because it is the
 * cheapest text format for both sides: JS writes it without building objects per row, and the
 * engine parses it faster than JSON (bench/ingest measures both).
 *
 * Encoding runs when a request is accepted, not when its batch is written, so it overlaps with
 * the engine's insert of the previous batch instead of adding to it.
 */

/** Attributes with their own columns in spans_index (reference ingest §2.12): [attribute, column]. */
export const ATTR_COLUMNS = PROMOTED_ATTRS;

export const SPANS_INDEX_COLUMNS: readonly string[] = [
  'project_id',
  'system',
  'group_id',
  'time',
  'trace_id',
  'id',
  'parent_id',
  'type',
  'kind',
  'name',
  'event_name',
  'display_name',
  'duration',
  'count',
  'status_code',
  'status_message',
  'standalone',
  'link_count',
  'event_count',
  'event_error_count',
  'event_log_count',
  'attr_keys',
  'attr_values',
  ...ATTR_COLUMNS.map(([, column]) => column),
];
export const SPANS_DATA_COLUMNS: readonly string[] = [
  'project_id',
  'trace_id',
  'id',
  'parent_id',
  'time',
  'is_event',
  'data',
];

/** Encoded rows of one or more requests, ready to be concatenated into one insert per table. */
export interface EncodedSpans {
  rows: number;
  index: Buffer;
  data: Buffer;
}

/**
 * What spans_data.data holds: everything the trace and span pages need that has no column.
 * A span's events are not repeated here: they are rows of their own, attached on read.
 */
export interface SpanData {
  standalone: boolean;
  type: string;
  system: string;
  groupId: string;
  kind: SpanRow['kind'];
  name: string;
  eventName: string;
  displayName: string;
  durationNs: number;
  statusCode: SpanRow['statusCode'];
  statusMessage: string;
  attrs: AttrMap;
  links: { traceId: string; spanId: string; attrs: AttrMap }[];
}

export function encodeSpans(rows: readonly SpanRow[]): EncodedSpans {
  // Sized by the bytes per row of the previous requests (a little over), so most requests fill
  // their buffers without growing them; the writers grow when needed.
  const index = new LineWriter(rows.length * indexBytesPerRow);
  const data = new LineWriter(rows.length * dataBytesPerRow);
  let traceId = '';
  let uuid = '';
  for (const r of rows) {
    // Work both lines share is done once per row: rows of one trace mostly come together.
    if (r.traceId !== traceId) {
      traceId = r.traceId;
      uuid = flat(traceIdToUuid(traceId));
    }
    const ids = `${uuid}\t${r.id}\t${r.parentId}`;
    const time = decimalSeconds(r.timeNs);
    const durationNs = Math.max(0, Math.round(r.durationNs));
    const h = headsOf(r);
    const a = encodeAttrs(r.attrs, r.sharedAttrs);
    index.write(
      `${h.index1}${time.slice(0, -3)}\t${ids}\t${h.index2}` +
        `${durationNs}\t1\t${r.statusCode}\t${tsv(r.statusMessage)}\t${r.standalone ? 1 : 0}\t` +
        `${Math.min(255, r.linkCount)}\t${Math.min(255, r.eventCount)}\t${Math.min(255, r.eventErrorCount)}\t` +
        `${Math.min(255, r.eventLogCount)}\t[${a.keys}]\t[${a.values}]\t${a.columns}\n`,
    );
    data.write(
      `${r.projectId}\t${ids}\t${time}\t${r.eventName !== '' ? 1 : 0}\t${h.data}${jsonText(r.displayName)},` +
        `"durationNs":${jsonNumber(durationNs)},"statusCode":${jsonText(r.statusCode)},` +
        `"statusMessage":${jsonText(r.statusMessage)},"attrs":{${a.json}},"links":${linksJson(r)}}\n`,
    );
  }
  const out = { rows: rows.length, index: index.finish(), data: data.finish() };
  if (rows.length >= 100) {
    indexBytesPerRow = Math.min(65_536, Math.ceil((out.index.length / rows.length) * 1.1) + 16);
    dataBytesPerRow = Math.min(65_536, Math.ceil((out.data.length / rows.length) * 1.1) + 16);
  }
  return out;
}

/**
 * The parts of a row's lines made of what its group's rows mostly share (project, system, group,
 * type, kind, names), kept per group id and taken when a row has the very same fields (checked
 * field by field, so a row that differs, or a group id shared by chance, gets its own):
 * `project\tsystem\tgroup\t` and `type\tkind\tname\tevent_name\tdisplay_name\t` of spans_index
 * (display_name: the group's name), and spans_data.data's JSON up to `"displayName":` (the row's
 * own, which often differs within a group), written field by field in SpanData's order (what
 * JSON.stringify of one would give), its backslashes doubled for TSV. Flat strings: a line takes
 * each as one piece (see `flat`).
 */
interface GroupHeads {
  of: Pick<SpanRow, 'projectId' | 'standalone' | 'system' | 'type' | 'kind' | 'name' | 'eventName'> & {
    /** spans_index.display_name: groupName ?? displayName. */
    shown: string;
  };
  index1: string;
  index2: string;
  data: string;
}

const heads = new Map<bigint, GroupHeads>();
function headsOf(r: SpanRow): GroupHeads {
  const h = heads.get(r.groupId);
  if (h !== undefined) {
    const o = h.of;
    if (
      o.name === r.name &&
      o.shown === (r.groupName ?? r.displayName) &&
      o.eventName === r.eventName &&
      o.system === r.system &&
      o.type === r.type &&
      o.kind === r.kind &&
      o.projectId === r.projectId &&
      o.standalone === r.standalone
    )
      return h;
  }
  const groupId = r.groupId.toString();
  const made: GroupHeads = {
    of: {
      projectId: r.projectId,
      standalone: r.standalone,
      system: r.system,
      type: r.type,
      kind: r.kind,
      name: r.name,
      eventName: r.eventName,
      shown: r.groupName ?? r.displayName,
    },
    index1: flat(`${r.projectId}\t${tsv(r.system)}\t${groupId}\t`),
    index2: flat(
      `${tsv(r.type)}\t${r.kind}\t${tsv(r.name)}\t${tsv(r.eventName)}\t${tsv(r.groupName ?? r.displayName)}\t`,
    ),
    data: flat(
      `{"standalone":${r.standalone ? 'true' : 'false'},"type":${jsonText(r.type)},"system":${jsonText(r.system)},` +
        `"groupId":"${groupId}","kind":${jsonText(r.kind)},"name":${jsonText(r.name)},` +
        `"eventName":${jsonText(r.eventName)},"displayName":`,
    ),
  };
  if (heads.size >= 20_000) heads.clear();
  heads.set(r.groupId, made);
  return made;
}

/** Bytes per encoded row of the last large request, with room (a start: about 1.3 kB per row each). */
let indexBytesPerRow = 1536;
let dataBytesPerRow = 1536;

/** Appends lines straight into a growing buffer: no large intermediate strings for the GC. */
class LineWriter {
  private buf: Buffer;
  private len = 0;

  constructor(expectedBytes: number) {
    this.buf = Buffer.allocUnsafeSlow(Math.max(4096, expectedBytes));
  }

  write(line: string): void {
    // utf8 is at most 3 bytes per UTF-16 unit; only when that might not fit is the line measured
    // (which flattens it once, for the write too), so a buffer sized right is not grown and copied
    // for the worst case of its last lines.
    const max = line.length * 3;
    if (this.len + max > this.buf.length && this.len + Buffer.byteLength(line) > this.buf.length) {
      const next = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.len + max));
      this.buf.copy(next, 0, 0, this.len);
      this.buf = next;
    }
    this.len += this.buf.write(line, this.len);
  }

  /**
   * The written bytes in a buffer of their own size when the spare room is large: a queued chunk
   * (and its copy between threads, which takes the whole backing memory) must not hold more memory
   * than the queue's byte limit counts.
   */
  finish(): Buffer {
    if (this.len >= this.buf.length * 0.75) return this.buf.subarray(0, this.len);
    const exact = Buffer.allocUnsafeSlow(this.len);
    this.buf.copy(exact, 0, 0, this.len);
    return exact;
  }
}

function linksJson(r: SpanRow): string {
  if (r.links.length === 0) return '[]';
  return tsvJson(
    JSON.stringify(r.links.map((l) => ({ traceId: l.traceId, spanId: l.spanId.toString(), attrs: l.attrs }))),
  );
}

/** `1700000000123456789n` -> `1700000000.123456789` (one BigInt conversion); the engine parses it exactly. */
function decimalSeconds(ns: bigint): string {
  const digits = ns.toString().padStart(10, '0');
  return `${digits.slice(0, -9)}.${digits.slice(-9)}`;
}
