import { jsonNestingDepth } from '@lantern/shared';
import type { AttrMap, AttrValue } from '../spanRow';
import { ALIAS_CANONICAL_KEYS, normalizeAliases } from './attrAliases';
import { cleanAttrKey } from './attrKey';
import { MAX_PARAM_DEPTH } from './attrLimits';

/**
 * "Populate from params" (reference ingest §2.6, `populateSpanFromParams`): fields found in a log
 * record's body, in a JSON log message or in logfmt pairs are merged into the row. Nested objects
 * are flattened to `parent.child` keys; canonical attributes (service.name, log.severity, ...)
 * fill the row only where it has none; trace and span ids are taken when the record has none;
 * every other field is added, and a field whose key the row already has goes to `key1`..`key3`
 * (dropped after that) so a body can never overwrite what the record itself said.
 */

/** Keys never parsed as embedded JSON while flattening: they are messages, not structures. */
const KEEP_AS_TEXT = new Set(['log.message', 'exception.message']);

/** JSON value (from JSON.parse or a converted kvlist) → flat key/values, depth-limited. */
export function flattenParams(obj: Record<string, unknown>): AttrMap {
  const out: AttrMap = {};
  flattenInto(out, '', obj, 0);
  return out;
}

function flattenInto(out: AttrMap, prefix: string, obj: Record<string, unknown>, depth: number): void {
  for (const rawKey of Object.keys(obj)) {
    // Top-level keys are kept as sent (reference); nested keys are cleaned like attribute keys.
    const key = prefix === '' ? rawKey : cleanAttrKey(rawKey);
    if (key === '' || key === '__proto__') continue;
    const full = prefix === '' ? key : `${prefix}.${key}`;
    const v = obj[rawKey];
    if (v === null || v === undefined) continue;
    if (typeof v === 'object' && !Array.isArray(v)) {
      if (depth < MAX_PARAM_DEPTH) flattenInto(out, full, v as Record<string, unknown>, depth + 1);
      else out[full] = '[nested too deep]';
      continue;
    }
    if (typeof v === 'string' && !KEEP_AS_TEXT.has(full) && depth < MAX_PARAM_DEPTH) {
      const nested = parseJsonObject(v);
      if (nested) {
        flattenInto(out, full, nested, depth + 1);
        continue;
      }
    }
    const value = jsonToAttr(v);
    if (value !== undefined) out[full] = value;
  }
}

/** The object when `text` is a JSON object (starts with `{`, ends with `}`), else undefined. */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  if (text.length < 2 || text.charCodeAt(0) !== 123 || text.charCodeAt(text.length - 1) !== 125) return undefined;
  // Deep nesting is refused before JSON.parse so no later recursive step can overflow the stack.
  if (jsonNestingDepth(text) > MAX_PARAM_DEPTH) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Scalars keep their type; arrays become arrays of strings (as OTLP arrays do, §2.3). */
function jsonToAttr(v: unknown): AttrValue | undefined {
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (Array.isArray(v)) {
    const out = v
      .filter((e) => e !== null && e !== undefined)
      .map((e) => (typeof e === 'string' ? e : JSON.stringify(e)));
    return out.length > 0 ? out : undefined;
  }
  return undefined;
}

export interface ParamIds {
  /** 32 hex chars or ''. */
  traceId: string;
  /** 0n when none. */
  spanId: bigint;
}

/**
 * Merges `params` into `attrs` (see the file comment). `ids` is updated in place from
 * `trace_id`/`traceid` and `span_id`/`spanid` when it has none.
 */
export function mergeParams(attrs: AttrMap, params: AttrMap, ids: ParamIds): void {
  normalizeAliases(params);
  for (const key of ALIAS_CANONICAL_KEYS) {
    const v = params[key];
    if (v === undefined) continue;
    if (attrs[key] === undefined) attrs[key] = v;
    delete params[key];
  }
  if (ids.traceId === '') {
    const t = takeText(params, 'trace_id', 'traceid');
    const traceId = t === undefined ? '' : parseTraceIdText(t);
    if (traceId !== '') ids.traceId = traceId;
    else if (t !== undefined) params.trace_id = t; // not an id after all: keep it as a field
  }
  if (ids.spanId === 0n) {
    const s = takeText(params, 'span_id', 'spanid');
    const spanId = s === undefined ? 0n : parseSpanIdText(s);
    if (spanId !== 0n) ids.spanId = spanId;
    else if (s !== undefined) params.span_id = s;
  }
  for (const key of Object.keys(params)) addWithoutClash(attrs, key, params[key]);
}

function takeText(params: AttrMap, a: string, b: string): string | undefined {
  for (const key of [a, b]) {
    const v = params[key];
    if (typeof v === 'string' && v !== '') {
      delete params[key];
      return v;
    }
  }
  return undefined;
}

function addWithoutClash(attrs: AttrMap, key: string, value: AttrValue): void {
  if (attrs[key] === undefined) {
    attrs[key] = value;
    return;
  }
  for (let n = 1; n <= 3; n++) {
    if (attrs[key + n] === undefined) {
      attrs[key + n] = value;
      return;
    }
  }
}

const HEX_RE = /^[0-9a-fA-F]+$/;

/** 32 hex chars, 16 hex chars (the low 8 bytes), or a dashed UUID → 32 hex chars; '' if invalid or zero. */
export function parseTraceIdText(text: string): string {
  let hex =
    text.length === 36 && text[8] === '-' && text[13] === '-' && text[18] === '-' && text[23] === '-'
      ? text.replaceAll('-', '')
      : text;
  if (hex.length === 16) hex = '0'.repeat(16) + hex;
  if (hex.length !== 32 || !HEX_RE.test(hex)) return '';
  hex = hex.toLowerCase();
  return /^0+$/.test(hex) ? '' : hex;
}

/** 16 hex chars (big-endian) or a decimal uint64 → id; 0n if invalid. */
export function parseSpanIdText(text: string): bigint {
  if (text.length === 16 && HEX_RE.test(text)) return BigInt('0x' + text);
  if (/^\d{1,20}$/.test(text)) {
    const n = BigInt(text);
    return n <= 0xffffffffffffffffn ? n : 0n;
  }
  return 0n;
}
