import type { OtlpSpan } from '../otlp';
import type { AttrMap, SpanLinkData, SpanRow } from '../spanRow';
import { ALIAS_KEYS, copyStableNames, normalizeAliases } from './attrAliases';
import { limitAttrs } from './attrLimits';
import { addAttrs, toAttrMap } from './attrValue';
import { rowNames } from './displayName';
import { groupId } from './groupId';
import { spanKind, statusCode } from './kindStatus';
import { groupEnv, type NormalizeOptions } from './options';
import { hexToU64 } from './rowIds';
import { splitSpanEvents } from './spanEvents';
import { classifySpan } from './spanSystem';
import { NAME_MAX_BYTES, SYSTEM_MAX_BYTES, truncateUtf8 } from './truncate';

/** The resource + scope attributes shared by the spans of one scope (copied, never changed). */
export interface ScopeAttrs {
  attrs: AttrMap;
  /** Whether any key is an alias source, so alias normalisation can be skipped when none is. */
  hasAliasKey: boolean;
}

/**
 * One OTLP span → its row, followed by one row per span event (reference ingest §2.2, §2.5,
 * §2.7–§2.10).
 */
export function normalizeSpan(span: OtlpSpan, base: ScopeAttrs, options: NormalizeOptions, out: SpanRow[]): void {
  // The span's own attributes are gathered apart and merged in one spread: adding them one by one
  // to a copy of the resource's turned most rows' maps into dictionaries (V8 allows only a dozen
  // properties added by keyed stores), whose for-in and JSON.stringify cost several times more in
  // every later step (limits, storable, encoding). Same keys, order and values either way.
  const own: AttrMap = {};
  const ownHasAliasKey = addAttrs(own, span.attributes, ALIAS_KEYS);
  const attrs: AttrMap = { ...base.attrs, ...own };
  if (ownHasAliasKey || base.hasAliasKey) normalizeAliases(attrs);
  limitAttrs(attrs);

  const id = hexToU64(span.spanId);
  const parentId = hexToU64(span.parentSpanId);
  const kind = spanKind(span.kind);
  const cls = classifySpan(attrs, { parentId, kind }, options.groupFuncsByService);
  const start = span.startTimeUnixNano;
  const end = span.endTimeUnixNano;
  const name = truncateUtf8(span.name, NAME_MAX_BYTES);
  const names = rowNames(attrs, cls, '', name);

  const row: SpanRow = {
    projectId: options.projectId,
    traceId: span.traceId,
    id,
    parentId,
    // OTLP spans always have a trace id (the decoder refuses zero ids), so never standalone.
    standalone: false,
    type: cls.type,
    system: truncateUtf8(cls.system, SYSTEM_MAX_BYTES),
    // Hashed with the full name: truncation (below) must not merge groups.
    groupId: groupId({
      env: groupEnv(attrs, options),
      system: cls.system,
      kind,
      name: span.name,
      attrs,
      keys: cls.hashKeys,
      suffix: cls.hashSuffix,
    }),
    kind,
    name,
    eventName: '',
    displayName: names.displayName,
    groupName: names.groupName,
    timeNs: start,
    // QUIRK fixed (§2.2): end < start gave a negative duration; a span cannot last less than 0.
    durationNs: end > start ? Number(end - start) : 0,
    statusCode: statusCode(span.status.code),
    statusMessage: span.status.message,
    attrs,
    sharedAttrs: base.attrs,
    events: [],
    links: links(span),
    linkCount: span.links.length,
    eventCount: 0,
    eventErrorCount: 0,
    eventLogCount: 0,
  };
  // After the group id (see copyStableNames); before the events, which take the span's attributes.
  copyStableNames(attrs);
  out.push(row);
  if (span.events.length > 0) splitSpanEvents(row, span.events, options, out);
}

function links(span: OtlpSpan): SpanLinkData[] {
  if (span.links.length === 0) return [];
  return span.links.map((l) => ({ traceId: l.traceId, spanId: hexToU64(l.spanId), attrs: toAttrMap(l.attributes) }));
}
