import type { Produced } from './produced';
import type { AttrMap, AttrValue, SpanRow } from './spanRow';

/**
 * Time and duration bounds every stored row must meet. A row outside them (a start time of 0 or in
 * the year 30000, a duration of 10^150 ns) cannot be written, and since a batch is written whole
 * it would fail every other client's rows in the same batch: such rows are dropped here and
 * reported like any other rejected record. (Times before 2001-09-09, under 10 digits of seconds,
 * are not even read as times by the engine; no retention keeps rows that old anyway.)
 */
export const MIN_TIME_NS = 1_000_000_000n * 1_000_000_000n;
// 2106: the metrics from spans put a span's minute into a datapoint row, whose time is a DateTime.
export const MAX_TIME_NS = BigInt(Date.UTC(2106, 0, 1)) * 1_000_000n;
export const MAX_DURATION_NS = 100 * 365 * 86_400 * 1e9;

export function storable(p: Produced): Produced {
  let bad = 0;
  for (const r of p.rows) {
    if (!rowFits(r)) bad++;
    else wellFormRow(r);
  }
  if (bad === 0) return p;
  return {
    rows: p.rows.filter(rowFits),
    rejected: p.rejected + bad,
    rejectedMessage:
      p.rejectedMessage ||
      `${bad} row(s) dropped: time before 2001-09-09 or after 2106-01-01, or duration over 100 years`,
  };
}

function rowFits(r: SpanRow): boolean {
  return (
    r.timeNs >= MIN_TIME_NS &&
    r.timeNs < MAX_TIME_NS &&
    Number.isFinite(r.durationNs) &&
    r.durationNs >= 0 &&
    r.durationNs <= MAX_DURATION_NS
  );
}

interface WellFormed {
  isWellFormed(): boolean;
  toWellFormed(): string;
}
const wf = (s: string): string =>
  (s as unknown as WellFormed).isWellFormed() ? s : (s as unknown as WellFormed).toWellFormed();

/**
 * Lone UTF-16 surrogates (from JSON `"\ud800"` or invalid UTF-8 in protobuf strings) cannot be
 * stored either; they become U+FFFD, in every string of the row, keys included.
 */
function wellFormRow(r: SpanRow): void {
  r.name = wf(r.name);
  r.eventName = wf(r.eventName);
  r.displayName = wf(r.displayName);
  r.statusMessage = wf(r.statusMessage);
  r.system = wf(r.system);
  r.type = wf(r.type);
  r.attrs = wellFormMap(r.attrs);
  for (const e of r.events) {
    e.name = wf(e.name);
    e.attrs = wellFormMap(e.attrs);
  }
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
