import { createHash } from 'node:crypto';
import { cleanAttrKey, fixKeyValues, WIRE_LEN, WireReader, type PbKeyValue } from '../../ingest';
import { datapointTail } from '../../storage/telemetry';
import { baseAttrs, seriesOf } from './metricSeries';

/**
 * The series a remote write worker knows (promWriteWire.ts), by their label fields' bytes, per
 * project and drop list: made once as the OTLP mapping would make them, then found by one Map
 * lookup a request. Bounded: past KNOWN_MAX series in all scopes, every scope starts again.
 */
export interface KnownSeries {
  /** '' when the series has no `__name__`. */
  name: string;
  /** Its part of PromColumns.dict. */
  info: string;
  /** Whether this worker sent `info` to the main thread in a request that decoded whole. */
  sent: boolean;
  hi: number;
  lo: number;
  flags: number;
  /** Its attribute keys, one array per metric and key list (shared by its series). */
  keys: string[];
}

export interface KnownScope {
  projectId: number;
  drop: ReadonlySet<string> | undefined;
  /** By the label fields' bytes as Latin-1. */
  series: Map<string, KnownSeries>;
}

/** PromColumns.flags: an `le` label; a `quantile` label. */
export const FLAG_LE = 1;
export const FLAG_QUANTILE = 2;

const KNOWN_MAX = 200_000;
const scopes = new Map<string, KnownScope>();
let knownSize = 0;
/**
 * One key array per metric and key list, shared by its series (cleared with the scopes): a
 * request's catalogue keys are then collected once per run of such series, not per series.
 */
const keyArrays = new Map<string, string[]>();

export function knownScope(projectId: number, dropAttrs: readonly string[]): KnownScope {
  const key = `${projectId}\u0001${dropAttrs.join('\u0003')}`;
  let scope = scopes.get(key);
  if (!scope) {
    scope = { projectId, drop: dropAttrs.length > 0 ? new Set(dropAttrs) : undefined, series: new Map() };
    scopes.set(key, scope);
  }
  return scope;
}

/** Makes and keeps the series of `labelKey` (label fields' bytes as Latin-1), new to `scope`. */
export function addSeries(scope: KnownScope, labelKey: string): KnownSeries {
  if (knownSize++ >= KNOWN_MAX) {
    for (const s of scopes.values()) s.series = new Map();
    keyArrays.clear();
    knownSize = 1;
  }
  const s = newSeries(scope.projectId, labelFields(Buffer.from(labelKey, 'latin1')), scope.drop);
  scope.series.set(labelKey, s);
  return s;
}

/** The Label messages of a series' label fields (its key's bytes). */
function labelFields(bytes: Buffer): [string, string][] {
  const lr = new WireReader(bytes);
  const end = bytes.length;
  const labels: [string, string][] = [];
  while (lr.pos < end) {
    lr.uint32(end); // the tag of field 1 (Label)
    const lEnd = lr.lengthEnd(end);
    let name = '';
    let value = '';
    while (lr.pos < lEnd) {
      const t = lr.uint32(lEnd);
      if (t === ((1 << 3) | WIRE_LEN)) name = lr.string(lEnd);
      else if (t === ((2 << 3) | WIRE_LEN)) value = lr.string(lEnd);
      else lr.skip(t & 7, lEnd);
    }
    labels.push([name, value]);
  }
  return labels;
}

/** A series' identity as the OTLP mapping gives it: labels as string attributes, `__name__` the metric. */
function newSeries(projectId: number, labels: [string, string][], drop: ReadonlySet<string> | undefined): KnownSeries {
  let name: string | null = null;
  let flags = 0;
  const attrs: PbKeyValue[] = [];
  for (const [k, v] of labels) {
    if (k === '__name__') name ??= v;
    else if (k) {
      attrs.push({ key: k, value: { stringValue: v } });
      if (k === 'le') flags |= FLAG_LE;
      if (k === 'quantile') flags |= FLAG_QUANTILE;
    }
  }
  attrs.sort((a, b) => (a.key! < b.key! ? -1 : 1));
  const { keys, vals, hash } = seriesOf(baseAttrs({}, drop), fixKeyValues(attrs));
  const metric = name ? cleanAttrKey(name) : '';
  const [hi, lo] = seriesId(`${projectId}\u0000${metric}\u0000${hash}`);
  const keysKey = `${metric}\u0000${keys.join('\u0000')}`;
  let shared = keyArrays.get(keysKey);
  if (!shared) keyArrays.set(keysKey, (shared = keys));
  return {
    name: metric,
    info: `${hash}\u001f${metric.length}\u001f${metric}${datapointTail(keys, vals).slice(0, -1)}`,
    sent: false,
    hi,
    lo,
    flags,
    keys: shared,
  };
}

/**
 * A series' id: the first 8 bytes of SHA-1 over its project, metric and hash, as two uint32s (as
 * unlikely to collide as the series hash itself, also 8 bytes of SHA-1). Once per series and worker.
 */
function seriesId(text: string): [number, number] {
  const d = createHash('sha1').update(text).digest();
  return [d.readUInt32BE(0), d.readUInt32BE(4)];
}
