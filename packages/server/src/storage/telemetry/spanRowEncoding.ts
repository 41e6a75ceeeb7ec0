import { PROMOTED_ATTRS } from '@lantern/shared';
import type { AttrMap, AttrValue, SpanRow } from './spanRow';
import { traceIdToUuid } from '../sql';

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
const COLUMN_ATTRS: Record<string, number> = {};
export const ATTR_COLUMNS = PROMOTED_ATTRS;
ATTR_COLUMNS.forEach(([attr], i) => (COLUMN_ATTRS[attr] = i));

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

export function stringifyAttr(v: AttrValue): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? v.toFixed(0) : String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return JSON.stringify(v);
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
  // About 1.3 kB per row in each table for typical spans; the writers grow when needed.
  const index = new LineWriter(rows.length * 1536);
  const data = new LineWriter(rows.length * 1536);
  let traceId = '';
  let uuid = '';
  for (const r of rows) {
    // Work both lines share is done once per row: rows of one trace mostly come together.
    if (r.traceId !== traceId) {
      traceId = r.traceId;
      uuid = traceIdToUuid(traceId);
    }
    const shared: SharedFields = {
      ids: `${uuid}\t${r.id}\t${r.parentId}`,
      groupId: r.groupId.toString(),
      time: decimalSeconds(r.timeNs),
      durationNs: Math.max(0, Math.round(r.durationNs)),
    };
    index.write(encodeIndexLine(r, shared));
    data.write(encodeDataLine(r, shared));
  }
  return { rows: rows.length, index: index.finish(), data: data.finish() };
}

/** Fields both tables' lines hold, formatted once per row. */
interface SharedFields {
  /** `trace_id \t id \t parent_id`: the same three columns, in this order, in both tables. */
  ids: string;
  groupId: string;
  /** Unix seconds with 9 decimals (spans_index keeps 6). */
  time: string;
  durationNs: number;
}

/** Appends lines straight into a growing buffer: no large intermediate strings for the GC. */
class LineWriter {
  private buf: Buffer;
  private len = 0;

  constructor(expectedBytes: number) {
    this.buf = Buffer.allocUnsafeSlow(Math.max(4096, expectedBytes));
  }

  write(line: string): void {
    // utf8 is at most 3 bytes per UTF-16 unit.
    const max = line.length * 3;
    if (this.len + max > this.buf.length) {
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

function encodeIndexLine(r: SpanRow, f: SharedFields): string {
  const columnValues: string[] = new Array<string>(ATTR_COLUMNS.length).fill('');
  let keys = '';
  let values = '';
  for (const key in r.attrs) {
    const v = r.attrs[key];
    const column = COLUMN_ATTRS[key];
    if (column !== undefined) {
      if (typeof v === 'string') columnValues[column] = tsv(v);
      continue;
    }
    if (key === 'display.name' || key.charCodeAt(0) === 95 /* _ */) continue;
    const q = quotedKey(key);
    keys += keys ? ',' + q : q;
    const qv = quoted(stringifyAttr(v));
    values += values ? ',' + qv : qv;
  }
  return (
    `${r.projectId}\t${tsv(r.system)}\t${f.groupId}\t${f.time.slice(0, -3)}\t${f.ids}\t` +
    `${tsv(r.type)}\t${r.kind}\t${tsv(r.name)}\t${tsv(r.eventName)}\t${tsv(r.groupName ?? r.displayName)}\t` +
    `${f.durationNs}\t1\t${r.statusCode}\t${tsv(r.statusMessage)}\t${r.standalone ? 1 : 0}\t` +
    `${Math.min(255, r.linkCount)}\t${Math.min(255, r.eventCount)}\t${Math.min(255, r.eventErrorCount)}\t` +
    `${Math.min(255, r.eventLogCount)}\t[${keys}]\t[${values}]\t${columnValues.join('\t')}\n`
  );
}

function encodeDataLine(r: SpanRow, f: SharedFields): string {
  const data: SpanData = {
    standalone: r.standalone,
    type: r.type,
    system: r.system,
    groupId: f.groupId,
    kind: r.kind,
    name: r.name,
    eventName: r.eventName,
    displayName: r.displayName,
    durationNs: f.durationNs,
    statusCode: r.statusCode,
    statusMessage: r.statusMessage,
    attrs: r.attrs,
    links: r.links.map((l) => ({ traceId: l.traceId, spanId: l.spanId.toString(), attrs: l.attrs })),
  };
  return `${r.projectId}\t${f.ids}\t${f.time}\t` + `${r.eventName !== '' ? 1 : 0}\t${tsvJson(JSON.stringify(data))}\n`;
}

/** `1700000000123456789n` -> `1700000000.123456789` (one BigInt conversion); the engine parses it exactly. */
function decimalSeconds(ns: bigint): string {
  const digits = ns.toString().padStart(10, '0');
  return `${digits.slice(0, -9)}.${digits.slice(-9)}`;
}

const TSV_SPECIAL = /[\\\t\n\r\0]/;
const TSV_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\\0' };

/** A TabSeparated field: backslash, tab, newline, CR and NUL escaped. */
export function tsv(s: string): string {
  return TSV_SPECIAL.test(s) ? s.replace(/[\\\t\n\r\0]/g, (c) => TSV_ESCAPES[c]) : s;
}

/** JSON text has its controls escaped already: only its backslashes need doubling. */
function tsvJson(json: string): string {
  return json.includes('\\') ? json.replaceAll('\\', '\\\\') : json;
}

const QUOTED_SPECIAL = /[\\'\t\n\r\0]/;
const QUOTED_ESCAPES: Record<string, string> = { ...TSV_ESCAPES, "'": "\\'" };

/** A string inside an array literal of a TabSeparated field: `'...'` with \ ' and controls escaped. */
export function quoted(s: string): string {
  return QUOTED_SPECIAL.test(s) ? `'${s.replace(/[\\'\t\n\r\0]/g, (c) => QUOTED_ESCAPES[c])}'` : `'${s}'`;
}

/** Attribute keys repeat across rows: quote each once (bounded, so odd keys cannot grow it forever). */
const quotedKeys = new Map<string, string>();
function quotedKey(key: string): string {
  let q = quotedKeys.get(key);
  if (q === undefined) {
    if (quotedKeys.size >= 10_000) quotedKeys.clear();
    q = quoted(key);
    quotedKeys.set(key, q);
  }
  return q;
}
