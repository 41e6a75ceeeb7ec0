import type { StatusCode } from '@lantern/shared';
import type { AttrMap, SpanRow } from '../spanRow';
import { rowNames } from './displayName';
import { classifyEvent, type HostSpan } from './eventSystem';
import { groupId } from './groupId';
import { groupEnv, type NormalizeOptions } from './options';
import { NAME_MAX_BYTES, SYSTEM_MAX_BYTES, truncateUtf8 } from './truncate';

/** Where an event row goes: its ids and time. */
export interface RowPlace {
  traceId: string;
  id: bigint;
  parentId: bigint;
  standalone: boolean;
  timeNs: bigint;
  /** SpanRow.sharedAttrs: what the row's attributes begin with (a span event's: its span's). */
  sharedAttrs?: AttrMap;
}

/** The span an event was recorded on (a log record has none: empty name, internal, unset). */
export interface EventHost extends HostSpan {
  statusCode: StatusCode;
}

/**
 * The row of an event: a span event split out of its span, or a log record (and the exception
 * it carries). System, group id and display name come from the event's name and attributes
 * (reference ingest §2.8-§2.11); name, kind and status from the host span.
 */
export function eventRow(
  eventName: string,
  attrs: AttrMap,
  ownAttrs: AttrMap,
  host: EventHost,
  place: RowPlace,
  options: NormalizeOptions,
): SpanRow {
  const cls = classifyEvent(eventName, attrs, ownAttrs, host);
  const shortName = truncateUtf8(eventName, NAME_MAX_BYTES);
  const names = rowNames(attrs, cls, shortName, host.name);
  return {
    // Same field order as span rows (normalizeSpan): one object shape for the encoder.
    projectId: options.projectId,
    traceId: place.traceId,
    id: place.id,
    parentId: place.parentId,
    standalone: place.standalone,
    type: cls.type,
    system: truncateUtf8(cls.system, SYSTEM_MAX_BYTES),
    // Hashed with the full names: truncation must not merge groups.
    groupId: groupId({
      env: groupEnv(attrs, options),
      system: cls.system,
      kind: host.kind,
      name: eventName,
      attrs,
      keys: cls.hashKeys,
      suffix: cls.hashSuffix,
    }),
    kind: host.kind,
    name: host.name,
    eventName: shortName,
    displayName: names.displayName,
    groupName: names.groupName,
    timeNs: place.timeNs,
    durationNs: 0,
    statusCode: host.statusCode,
    statusMessage: '',
    attrs,
    sharedAttrs: place.sharedAttrs,
    events: [],
    links: [],
    linkCount: 0,
    eventCount: 0,
    eventErrorCount: 0,
    eventLogCount: 0,
  };
}
