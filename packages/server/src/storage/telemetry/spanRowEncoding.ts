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
export const ATTR_COLUMNS = PROMOTED_ATTRS;
const COLUMN_ATTRS = new Map<string, number>(ATTR_COLUMNS.map(([attr], i) => [attr, i]));

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
      uuid = traceIdToUuid(traceId);
    }
    const ids = `${uuid}\t${r.id}\t${r.parentId}`;
    const groupId = groupIdText(r.groupId);
    const time = decimalSeconds(r.timeNs);
    const durationNs = Math.max(0, Math.round(r.durationNs));
    const a = encodeAttrs(r.attrs, r.sharedAttrs);
    index.write(
      `${r.projectId}\t${tsv(r.system)}\t${groupId}\t${time.slice(0, -3)}\t${ids}\t` +
        `${tsv(r.type)}\t${r.kind}\t${tsv(r.name)}\t${tsv(r.eventName)}\t${tsv(r.groupName ?? r.displayName)}\t` +
        `${durationNs}\t1\t${r.statusCode}\t${tsv(r.statusMessage)}\t${r.standalone ? 1 : 0}\t` +
        `${Math.min(255, r.linkCount)}\t${Math.min(255, r.eventCount)}\t${Math.min(255, r.eventErrorCount)}\t` +
        `${Math.min(255, r.eventLogCount)}\t[${a.keys}]\t[${a.values}]\t${a.columns}\n`,
    );
    // spans_data.data is the JSON of a SpanData, written field by field in SpanData's order (what
    // JSON.stringify of one would give), its backslashes doubled for TSV.
    data.write(
      `${r.projectId}\t${ids}\t${time}\t${r.eventName !== '' ? 1 : 0}\t` +
        `{"standalone":${r.standalone ? 'true' : 'false'},"type":${jsonText(r.type)},"system":${jsonText(r.system)},` +
        `"groupId":"${groupId}","kind":${jsonText(r.kind)},"name":${jsonText(r.name)},` +
        `"eventName":${jsonText(r.eventName)},"displayName":${jsonText(r.displayName)},` +
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

/** What a row's attributes give both lines: attr_keys, attr_values, the promoted columns and the JSON members. */
interface EncodedAttrs {
  keys: string;
  values: string;
  /** The promoted columns' fields, tab-separated. */
  columns: string;
  /** `"key":value,...` of attrs in spans_data.data. */
  json: string;
}

/** How an attribute key is written, worked out once per key (bounded, so odd keys cannot grow it forever). */
interface KeyForms {
  /** Its promoted column, or -1. */
  column: number;
  /** Whether it goes to attr_keys / attr_values (display.name and `_` keys do not). */
  listed: boolean;
  /** `'key'` for attr_keys. */
  quoted: string;
  /** `"key":` for the data JSON, TSV-escaped. */
  json: string;
}

const keyForms = new Map<string, KeyForms>();
function formsOf(key: string): KeyForms {
  let f = keyForms.get(key);
  if (f === undefined) {
    if (keyForms.size >= 10_000) keyForms.clear();
    const column = COLUMN_ATTRS.get(key);
    f = {
      column: column ?? -1,
      listed: key !== 'display.name' && key.charCodeAt(0) !== 95 /* _ */,
      quoted: quoted(key),
      json: `${tsvJson(JSON.stringify(key))}:`,
    };
    keyForms.set(key, f);
  }
  return f;
}

/** Attributes being encoded: the parts so far, and the promoted columns' fields in `columns`. */
class AttrParts {
  keys = '';
  values = '';
  json = '';
  anyColumn = false;
  readonly columns: string[] = new Array<string>(ATTR_COLUMNS.length).fill('');

  reset(): void {
    this.keys = '';
    this.values = '';
    this.json = '';
    if (this.anyColumn) {
      this.columns.fill('');
      this.anyColumn = false;
    }
  }

  /** One attribute into each form. */
  add(f: KeyForms, v: AttrValue): void {
    let jv: string;
    if (typeof v === 'string') {
      if (!ANY_SPECIAL.test(v)) {
        // The common case: nothing to escape in either form.
        jv = `"${v}"`;
        if (f.column >= 0) {
          this.columns[f.column] = v;
          this.anyColumn = true;
        } else if (f.listed) this.list(f, `'${v}'`);
      } else {
        jv = tsvJson(JSON.stringify(v));
        if (f.column >= 0) {
          this.columns[f.column] = tsv(v);
          this.anyColumn = true;
        } else if (f.listed) this.list(f, quoted(v));
      }
    } else {
      jv = jsonValue(v);
      // A promoted attribute that is not a string has no column and is not listed either.
      if (f.column < 0 && f.listed) this.list(f, quoted(stringifyAttr(v)));
    }
    this.json += this.json === '' ? f.json + jv : ',' + f.json + jv;
  }

  private list(f: KeyForms, value: string): void {
    if (this.keys === '') {
      this.keys = f.quoted;
      this.values = value;
    } else {
      this.keys += ',' + f.quoted;
      this.values += ',' + value;
    }
  }

  columnsText(): string {
    return this.anyColumn ? this.columns.join('\t') : EMPTY_COLUMNS;
  }
}

/**
 * The encoded forms of a row's shared attributes (SpanRow.sharedAttrs: a resource's and scope's,
 * the same for every row of a ResourceSpans), with the entries they were made of so that a row can
 * be checked to really begin with them.
 */
interface SharedPrefix {
  of: AttrMap;
  keys: string[];
  values: AttrValue[];
  parts: { keys: string; values: string; json: string };
  /** [column, field] of the promoted attributes among them. */
  columns: [number, string][];
}

const parts = new AttrParts();
let lastPrefix: SharedPrefix | null = null;

function prefixOf(shared: AttrMap): SharedPrefix {
  if (lastPrefix !== null && lastPrefix.of === shared) return lastPrefix;
  const p = new AttrParts();
  const keys: string[] = [];
  const values: AttrValue[] = [];
  for (const key in shared) {
    const v = shared[key];
    keys.push(key);
    values.push(v);
    p.add(formsOf(key), v);
  }
  const columns: [number, string][] = [];
  p.columns.forEach((text, column) => {
    if (text !== '') columns.push([column, text]);
  });
  lastPrefix = { of: shared, keys, values, parts: { keys: p.keys, values: p.values, json: p.json }, columns };
  return lastPrefix;
}

/**
 * One pass over a row's attributes for both lines. When the row's attributes begin with its
 * shared ones (checked entry by entry: same key, same value, in the same place), those are taken
 * encoded from the shared prefix and only the rest is encoded; when not (a span overrode or an
 * alias moved one of them), all are encoded. The bytes are the same either way.
 */
function encodeAttrs(attrs: AttrMap, shared: AttrMap | undefined): EncodedAttrs {
  const a = parts;
  a.reset();
  const prefix = shared === undefined ? null : prefixOf(shared);
  let matched = 0;
  let inPrefix = prefix !== null && prefix.keys.length > 0;
  for (const key in attrs) {
    const v = attrs[key];
    if (inPrefix) {
      if (key === prefix!.keys[matched] && v === prefix!.values[matched]) {
        if (++matched === prefix!.keys.length) inPrefix = false;
        continue;
      }
      return encodeAllAttrs(attrs);
    }
    a.add(formsOf(key), v);
  }
  if (prefix === null) return { keys: a.keys, values: a.values, columns: a.columnsText(), json: a.json };
  if (inPrefix) return encodeAllAttrs(attrs);
  for (const [column, text] of prefix.columns) {
    a.columns[column] = text;
    a.anyColumn = true;
  }
  const p = prefix.parts;
  return {
    keys: join(p.keys, a.keys),
    values: join(p.values, a.values),
    columns: a.columnsText(),
    json: join(p.json, a.json),
  };
}

function encodeAllAttrs(attrs: AttrMap): EncodedAttrs {
  const a = parts;
  a.reset();
  for (const key in attrs) a.add(formsOf(key), attrs[key]);
  return { keys: a.keys, values: a.values, columns: a.columnsText(), json: a.json };
}

function join(first: string, rest: string): string {
  return first === '' ? rest : rest === '' ? first : first + ',' + rest;
}

const EMPTY_COLUMNS = new Array<string>(ATTR_COLUMNS.length).fill('').join('\t');

/** A character that TSV, an array literal's quotes or JSON escapes (lone surrogates included, for JSON). */
// eslint-disable-next-line no-control-regex -- JSON escapes exactly the controls U+0000-U+001F
const ANY_SPECIAL = /[\\'"\u0000-\u001f\ud800-\udfff]/;
/** A character JSON.stringify escapes in a string. */
// eslint-disable-next-line no-control-regex -- JSON escapes exactly the controls U+0000-U+001F
const JSON_SPECIAL = /["\\\u0000-\u001f\ud800-\udfff]/;

/** JSON.stringify(s), TSV-escaped. */
function jsonText(s: string): string {
  return JSON_SPECIAL.test(s) ? tsvJson(JSON.stringify(s)) : `"${s}"`;
}

function jsonNumber(n: number): string {
  return Number.isFinite(n) ? String(n) : 'null';
}

/** JSON.stringify of a value that is not a string, TSV-escaped. */
function jsonValue(v: AttrValue): string {
  if (typeof v === 'number') return jsonNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v === null) return 'null';
  return tsvJson(JSON.stringify(v));
}

function linksJson(r: SpanRow): string {
  if (r.links.length === 0) return '[]';
  return tsvJson(
    JSON.stringify(r.links.map((l) => ({ traceId: l.traceId, spanId: l.spanId.toString(), attrs: l.attrs }))),
  );
}

/** A 64-bit group id's decimal text, memoised: most rows of a request fall into few groups. */
const groupTexts = new Map<bigint, string>();
function groupIdText(id: bigint): string {
  let t = groupTexts.get(id);
  if (t === undefined) {
    if (groupTexts.size >= 20_000) groupTexts.clear();
    t = id.toString();
    groupTexts.set(id, t);
  }
  return t;
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
