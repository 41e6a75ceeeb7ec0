import type { AttrMap, SpanRow } from '../spanRow';
import { copyStableNames, normalizeAliases } from './attrAliases';
import { limitAttrs } from './attrLimits';
import { textAttr } from './attrValue';
import { eventRow, type EventHost } from './eventRow';
import { parseLogMessage, popMessage } from './logMessage';
import { mergeParams, type ParamIds } from './logParams';
import type { NormalizeOptions } from './options';
import { eventRowId, u64ToHex } from './rowIds';

/**
 * One log record → its row (and an exception row when it carries an exception), whatever the
 * source (OTLP logs, Vector). Follows reference ingest §2.5/§2.11: aliases, message parsing,
 * severity, trace correlation, `log:<severity>` system, group id from the message words.
 */
export interface LogInput {
  /** Resource, scope and record attributes merged (keys cleaned); `log.severity` and
   *  `log.message` set when the source had them. Owned by the row from here on. */
  attrs: AttrMap;
  /** The record's own attributes (for the display-name fallback). */
  ownAttrs: AttrMap;
  /** Fields from a structured body, merged as parameters (never overriding attrs). */
  params?: AttrMap;
  timeNs: bigint;
  /** 32 hex chars or ''. */
  traceId: string;
  /** 0n when none. */
  spanId: bigint;
  /**
   * Seeds the ids this row needs (its own id; a parent id when it has a trace but no span; a
   * trace id when standalone). Derived, not random, so normalisation stays pure and a retried
   * export gives the same rows; different records of one request must get different seeds.
   */
  seed: bigint;
}

const LOG_HOST: EventHost = { name: '', kind: 'internal', statusCode: 'unset' };

export function buildLogRows(input: LogInput, options: NormalizeOptions, out: SpanRow[]): void {
  const attrs = input.attrs;
  normalizeAliases(attrs);
  const ids: ParamIds = { traceId: input.traceId, spanId: input.spanId };
  // Reference §2.11: without a message, the first non-empty `log`/`message`/`msg` attribute is it.
  const message = textAttr(attrs, 'log.message') || popMessage(attrs) || '';
  if (message !== '') {
    const parsed = parseLogMessage(message);
    attrs['log.message'] = parsed.message;
    mergeParams(attrs, parsed.params, ids);
  }
  if (input.params) mergeParams(attrs, input.params, ids);
  // Log group keys hold none of these names (eventSystem.ts), so the copy can come first.
  copyStableNames(attrs);
  limitAttrs(attrs);

  const standalone = ids.traceId === '';
  const traceId = standalone ? u64ToHex(eventRowId(input.seed, 1)) + u64ToHex(eventRowId(input.seed, 2)) : ids.traceId;
  // A log in a trace but without a span hangs off an id no span has, so the trace view shows it
  // on the root (reference §2.5); a standalone log has no parent.
  const parentId = standalone ? 0n : ids.spanId !== 0n ? ids.spanId : eventRowId(input.seed, 3);
  const id = eventRowId(input.seed, 0);

  const logAttrs = hasException(attrs) ? { ...attrs } : attrs;
  out.push(
    eventRow(
      'log',
      logAttrs,
      input.ownAttrs,
      LOG_HOST,
      { traceId, id, parentId, standalone, timeNs: input.timeNs },
      options,
    ),
  );
  if (logAttrs !== attrs) {
    // An exception carried by a log also counts as an exception (grouped by type and message
    // words, system log:error), like one recorded on a span.
    out.push(
      eventRow(
        'exception',
        attrs,
        input.ownAttrs,
        LOG_HOST,
        { traceId, id: eventRowId(input.seed, 4), parentId, standalone, timeNs: input.timeNs },
        options,
      ),
    );
  }
}

function hasException(attrs: AttrMap): boolean {
  return textAttr(attrs, 'exception.type') !== '' || textAttr(attrs, 'exception.message') !== '';
}
