import { PROMOTED_ATTRS } from '@lantern/shared';
import type { AttrMap, AttrValue } from './spanRow';
import { ANY_SPECIAL, jsonValue, quoted, tsv, tsvJson } from './tsvText';

/**
 * A span row's attributes as both lines want them (spanRowEncoding.ts): `attr_keys` and
 * `attr_values` of spans_index, the promoted columns, and the members of spans_data's JSON, made
 * in one pass; a ResourceSpans' shared attributes are encoded once.
 */

const COLUMN_ATTRS = new Map<string, number>(PROMOTED_ATTRS.map(([attr], i) => [attr, i]));

const EMPTY_COLUMNS = new Array<string>(PROMOTED_ATTRS.length).fill('').join('\t');

/** What a row's attributes give both lines: attr_keys, attr_values, the promoted columns and the JSON members. */
export interface EncodedAttrs {
  keys: string;
  values: string;
  /** The promoted columns' fields, tab-separated. */
  columns: string;
  /** `"key":value,...` of attrs in spans_data.data. */
  json: string;
}

/** An attribute value as text (attr_values, and what a metric from spans reads). */
export function stringifyAttr(v: AttrValue): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? v.toFixed(0) : String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return JSON.stringify(v);
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
  readonly columns: string[] = new Array<string>(PROMOTED_ATTRS.length).fill('');

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
export function encodeAttrs(attrs: AttrMap, shared: AttrMap | undefined): EncodedAttrs {
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
