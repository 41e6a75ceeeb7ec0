import type { OtlpEvent } from '../otlp';
import { storableTime } from '../rowBounds';
import type { AttrMap, SpanRow } from '../spanRow';
import { ALIAS_KEYS, copyStableNames, normalizeAliases } from './attrAliases';
import { limitAttrs } from './attrLimits';
import { addAttrs } from './attrValue';
import { eventRow } from './eventRow';
import { canonicalEventName, ERROR_SYSTEMS } from './eventSystem';
import type { NormalizeOptions } from './options';
import { eventRowId } from './rowIds';

/**
 * Span events → their own rows (reference ingest §2.8), so logs, exceptions and messages recorded
 * on spans can be searched, grouped and alerted on like spans. Each row hangs off its span
 * (parentId = span id, same trace id), takes the event's attributes plus the span's for keys the
 * event lacks, and inherits the span's name, kind and status. The span row keeps the events too
 * (for the trace page) and gets the event counters.
 *
 * QUIRK fixed: the reference skips the display-name step and truncation for these rows, leaving
 * `other-events` rows without a display name; here they get the same §2.9/§2.10 treatment.
 */
export function splitSpanEvents(
  host: SpanRow,
  events: readonly OtlpEvent[],
  options: NormalizeOptions,
  out: SpanRow[],
): void {
  for (let i = 0; i < events.length; i++) {
    const ev = events[i];
    const own: AttrMap = {};
    const ownHasAliasKey = addAttrs(own, ev.attributes, ALIAS_KEYS);
    // An event without a time (or with one no row can have) would be dropped: it takes the span start.
    const timeNs = storableTime(ev.timeUnixNano) ? ev.timeUnixNano : host.timeNs;
    host.events.push({ name: ev.name, timeNs, attrs: own });

    const attrs: AttrMap = { ...host.attrs, ...own };
    // The host's attributes are normalised already; only the event's own keys can add an alias.
    if (ownHasAliasKey) normalizeAliases(attrs);
    // The span's copies are in host.attrs; an event's own stable names override them.
    copyStableNames(attrs, own);
    limitAttrs(attrs);
    // A row is an event only when eventName is non-empty, so a nameless event needs a name.
    const eventName = canonicalEventName(ev.name) || 'event';
    const row = eventRow(
      eventName,
      attrs,
      own,
      host,
      {
        traceId: host.traceId,
        id: eventRowId(host.id, i),
        parentId: host.id,
        standalone: false,
        timeNs,
        sharedAttrs: host.sharedAttrs,
      },
      options,
    );
    out.push(row);

    if (ERROR_SYSTEMS.has(row.system)) host.eventErrorCount++;
    if (row.system.startsWith('log:')) host.eventLogCount++;
  }
  host.eventCount = events.length;
}
