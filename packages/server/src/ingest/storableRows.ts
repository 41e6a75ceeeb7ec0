import type { Produced } from './produced';
import { MAX_DURATION_NS, storableTime } from './rowBounds';
import type { AttrMap, AttrValue, SpanRow } from './spanRow';

/**
 * The rows that can be stored. A span that cannot goes with the event rows made from it (they
 * would hang off a span that is not there), and counts once as a rejected span; a standalone
 * record (a log) counts once too. (An event's own bad time never gets here: it takes its span's,
 * normalize/spanEvents.ts.)
 */
export function storable(p: Produced): Produced {
  let bad = 0;
  let dropped: Set<string> | undefined;
  for (const r of p.rows) {
    if (!rowFits(r)) {
      bad++;
      if (!r.eventName || r.standalone) (dropped ??= new Set()).add(`${r.traceId}/${r.id}`);
    } else wellFormRow(r, p.attrsWellFormed === true);
  }
  if (bad === 0) return p;
  const orphan = (r: SpanRow) => !r.standalone && r.eventName !== '' && dropped?.has(`${r.traceId}/${r.parentId}`);
  return {
    rows: p.rows.filter((r) => rowFits(r) && !orphan(r)),
    rejected: p.rejected + (dropped?.size ?? 0),
    rejectedMessage:
      p.rejectedMessage ||
      `${dropped?.size ?? 0} span(s) or record(s) dropped: time before 2001-09-09 or after 2106-01-01, or duration over 100 years`,
  };
}

function rowFits(r: SpanRow): boolean {
  return (
    storableTime(r.timeNs) && Number.isFinite(r.durationNs) && r.durationNs >= 0 && r.durationNs <= MAX_DURATION_NS
  );
}

interface WellFormed {
  isWellFormed(): boolean;
  toWellFormed(): string;
}
const wf = (s: string): string =>
  (s as unknown as WellFormed).isWellFormed() ? s : (s as unknown as WellFormed).toWellFormed();

/**
 * Lone UTF-16 surrogates (from JSON `"\ud800"`) cannot be stored either; they become U+FFFD, in
 * every string of the row, keys included. The attribute maps are skipped when the producer
 * vouches for them (Produced.attrsWellFormed: walking them was most of this step's cost); the
 * row's own strings, some made by normalisation, are checked always.
 */
function wellFormRow(r: SpanRow, attrsWellFormed: boolean): void {
  r.name = wf(r.name);
  r.eventName = wf(r.eventName);
  r.displayName = wf(r.displayName);
  r.statusMessage = wf(r.statusMessage);
  r.system = wf(r.system);
  r.type = wf(r.type);
  for (const e of r.events) e.name = wf(e.name);
  if (attrsWellFormed) return;
  r.attrs = wellFormMap(r.attrs);
  for (const e of r.events) e.attrs = wellFormMap(e.attrs);
  for (const l of r.links) l.attrs = wellFormMap(l.attrs);
}

function wellFormMap(m: AttrMap): AttrMap {
  let out: AttrMap | undefined;
  for (const key in m) {
    const v = m[key];
    const k2 = wf(key);
    const v2 = wellFormValue(v);
    if (k2 !== key || v2 !== v) {
      out ??= { ...m };
      if (k2 !== key) delete out[key];
      out[k2] = v2;
    }
  }
  return out ?? m;
}

function wellFormValue(v: AttrValue): AttrValue {
  if (typeof v === 'string') return wf(v);
  if (Array.isArray(v)) {
    let out: AttrValue[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const e = wellFormValue(v[i]);
      if (e !== v[i]) (out ??= [...v])[i] = e;
    }
    return out ?? v;
  }
  if (v !== null && typeof v === 'object') return wellFormMap(v);
  return v;
}
