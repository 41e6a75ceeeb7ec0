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
  /** `'key'` for attr_keys, and `,'key'` after the first. */
  quoted: string;
  commaQuoted: string;
  /** `"key":` for the data JSON, TSV-escaped. */
  json: string;
  /** Its string values' forms (see ValueForms); null once the key shows too many values. */
  values: Map<string, ValueForms> | null;
}

/**
 * A string value's forms under one key, kept for keys with few values (`http.method`,
 * `db.system`): a row then adds one piece per form instead of building each from the value,
 * and its lines are made of fewer pieces for the writer to join (spanRowEncoding.ts).
 */
interface ValueForms {
  /** `"key":"value"` and `,"key":"value"`, TSV-escaped. */
  json: string;
  commaJson: string;
  /** `'value'` and `,'value'` for attr_values; '' when the key is not listed. */
  list: string;
  commaList: string;
  /** The promoted column's field. */
  column: string;
}

/** Values kept per key: past this the key's values are taken as too many to keep (ids, statements). */
const VALUES_PER_KEY = 64;
/** Longer values are not looked up (hashing them would cost what it saves). */
const VALUE_MAX_CHARS = 48;
/** Values kept over all keys (about 200 B each) before the forms are dropped and made anew. */
const VALUES_MAX = 20_000;
let valueCount = 0;

const keyForms = new Map<string, KeyForms>();
function formsOf(key: string): KeyForms {
  let f = keyForms.get(key);
  if (f === undefined) {
    if (keyForms.size >= 10_000) {
      keyForms.clear();
      valueCount = 0;
    }
    const column = COLUMN_ATTRS.get(key);
    const q = quoted(key);
    f = {
      column: column ?? -1,
      listed: key !== 'display.name' && key.charCodeAt(0) !== 95 /* _ */,
      quoted: flat(q),
      commaQuoted: flat(',' + q),
      json: flat(`${tsvJson(JSON.stringify(key))}:`),
      values: new Map(),
    };
    keyForms.set(key, f);
  }
  return f;
}

function valueForms(f: KeyForms, v: string): ValueForms {
  const plain = !ANY_SPECIAL.test(v);
  const json = f.json + (plain ? `"${v}"` : tsvJson(JSON.stringify(v)));
  const list = f.column < 0 && f.listed ? (plain ? `'${v}'` : quoted(v)) : '';
  return {
    json: flat(json),
    commaJson: flat(',' + json),
    list: flat(list),
    commaList: flat(',' + list),
    column: f.column >= 0 ? (plain ? v : tsv(v)) : '',
  };
}

/**
 * `s` flattened once (a regular expression reads a flat string), for a string that goes into many
 * lines: each line's write joins its pieces into one flat string first (`Buffer#write`), and that
 * costs by the piece, so a string made of many pieces costs in every line that takes it.
 */
const ANYTHING = /^/;
export function flat(s: string): string {
  ANYTHING.test(s);
  return s;
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
    if (typeof v === 'string') {
      const known = f.values;
      if (known !== null && v.length <= VALUE_MAX_CHARS) {
        let vf = known.get(v);
        if (vf === undefined) {
          vf = valueForms(f, v);
          if (known.size >= VALUES_PER_KEY) f.values = null;
          else if (++valueCount <= VALUES_MAX) known.set(v, vf);
          else {
            keyForms.clear();
            valueCount = 0;
          }
        }
        this.addForms(f, vf);
        return;
      }
      let jv: string;
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
      this.json += this.json === '' ? f.json + jv : ',' + f.json + jv;
      return;
    }
    let jv: string;
    if (typeof v === 'number') {
      // One text for both forms: a finite number's JSON is its String(), which for an integer is
      // also its toFixed(0) (stringifyAttr).
      const text = String(v);
      jv = Number.isFinite(v) ? text : 'null';
      if (f.column < 0 && f.listed) this.list(f, Number.isInteger(v) ? `'${text}'` : quoted(stringifyAttr(v)));
    } else {
      jv = jsonValue(v);
      // A promoted attribute that is not a string has no column and is not listed either.
      if (f.column < 0 && f.listed) this.list(f, quoted(stringifyAttr(v)));
    }
    this.json += this.json === '' ? f.json + jv : ',' + f.json + jv;
  }

  private addForms(f: KeyForms, vf: ValueForms): void {
    if (f.column >= 0) {
      this.columns[f.column] = vf.column;
      this.anyColumn = true;
    } else if (f.listed) {
      if (this.keys === '') {
        this.keys = f.quoted;
        this.values = vf.list;
      } else {
        this.keys += f.commaQuoted;
        this.values += vf.commaList;
      }
    }
    this.json += this.json === '' ? vf.json : vf.commaJson;
  }

  private list(f: KeyForms, value: string): void {
    if (this.keys === '') {
      this.keys = f.quoted;
      this.values = value;
    } else {
      this.keys += f.commaQuoted;
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
  lastPrefix = {
    of: shared,
    keys,
    values,
    parts: { keys: flat(p.keys), values: flat(p.values), json: flat(p.json) },
    columns,
  };
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
  const pc = prefix.columns;
  for (let i = 0; i < pc.length; i++) {
    a.columns[pc[i][0]] = pc[i][1];
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
