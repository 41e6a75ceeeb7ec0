import { createHash } from 'node:crypto';
import type { SpanKind } from '@lantern/shared';
import type { AttrMap, AttrValue } from '../spanRow';

/**
 * Group ids (reference ingest §2.7 `hashSpan`, §2.8 for events): spans and events of the same
 * shape share one stable 64-bit id, the unit of the Groups page and of error alerts. The inputs
 * follow the reference: [environment when the project groups by env] + system + kind + (event
 * name or span name) + each rule key present with its value + the rule's suffix (SQL keywords,
 * log or exception message words).
 *
 * The hash is the first 8 bytes of SHA-1 (big-endian), not the reference's XXH64: node:crypto is
 * built in and stable across versions, and ids need not match the reference. Parts are joined with
 * NUL so `ab`+`c` and `a`+`bc` cannot collide, which the reference's plain concatenation allows.
 */
export interface GroupIdInput {
  /** `deployment.environment` when the project's groupByEnv is on, else ''. */
  env: string;
  system: string;
  kind: SpanKind;
  /** The event name for event rows, else the span name (before truncation). */
  name: string;
  attrs: AttrMap;
  /** Rule keys hashed as `key` + value, in order, only when present. */
  keys: readonly string[];
  suffix: string;
}

const SEP = '\u0000';

/**
 * Memo of hash text → id. Most spans of a batch fall into few groups, and a Map lookup is far
 * cheaper than a SHA-1 call. Bounded (cleared when full) so odd inputs cannot grow memory; the
 * result is the same with or without it, so normalisation stays pure.
 */
const MEMO_MAX = 20_000;
const memo = new Map<string, bigint>();

export function groupId(input: GroupIdInput): bigint {
  let text = input.env + SEP + input.system + SEP + input.kind + SEP + input.name;
  for (const key of input.keys) {
    const v = input.attrs[key];
    if (v === undefined) continue;
    text += SEP + key + SEP + hashValueText(v);
  }
  if (input.suffix !== '') text += SEP + input.suffix;
  let id = memo.get(text);
  if (id === undefined) {
    id = createHash('sha1').update(text).digest().readBigUInt64BE(0);
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(text, id);
  }
  return id;
}

/** Values as stable text: strings as-is, numbers/bools plainly, arrays and maps as JSON. */
function hashValueText(v: AttrValue): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}
