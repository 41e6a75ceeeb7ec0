import type { AttrMap } from '../spanRow';
import { textAttr } from './attrValue';
import { DISPLAY_NAME_MAX_BYTES, truncateUtf8 } from './truncate';

/** What a row shows (`displayName`) and what its group is called (`groupName`). */
export interface RowNames {
  displayName: string;
  groupName: string;
}

/**
 * Display names (reference ingest §2.9): what the trace timeline and span lists show. A
 * `display.name` attribute overrides everything (and is removed, it has done its job); else the
 * rule's text (db statement, log message, exception); else event name, span name, `<empty>`.
 * The group name is the rule's template where it has one (issue 20), else the display name: an
 * override is the user's own name for the group, and span and event names are low-cardinality.
 */
export function rowNames(
  attrs: AttrMap,
  rule: { displayName: string; groupName: string },
  eventName: string,
  name: string,
): RowNames {
  const override = attrs['display.name'];
  if (override !== undefined) delete attrs['display.name'];
  if (typeof override === 'string' && override !== '') return same(truncateUtf8(override, DISPLAY_NAME_MAX_BYTES));
  if (rule.displayName !== '') {
    const displayName = truncateUtf8(rule.displayName, DISPLAY_NAME_MAX_BYTES);
    return {
      displayName,
      groupName: rule.groupName === '' ? displayName : truncateUtf8(rule.groupName, DISPLAY_NAME_MAX_BYTES),
    };
  }
  return same(truncateUtf8(eventName || name || '<empty>', DISPLAY_NAME_MAX_BYTES));
}

function same(name: string): RowNames {
  return { displayName: name, groupName: name };
}

/** `Type: message`, without repeating the type when the message already starts with it. */
export function joinTypeMessage(type: string, msg: string): string {
  if (msg === '') return type;
  if (type === '' || msg.startsWith(type)) return msg;
  return `${type}: ${msg}`;
}

/** `<span name> <detail>`, leaving out the span name when it is empty. */
export function joinName(name: string, detail: string): string {
  return name === '' ? detail : `${name} ${detail}`;
}

/**
 * A log row's display name: `SEV message` (unless the message already starts with the
 * severity), else the exception text, else the event's own attributes as JSON, else its name.
 * Using the event's own attributes (not the span's merged in) is a deliberate change from the
 * reference, which would show the whole resource (service.name, host, ...) as the log's title.
 * `text` maps the variable texts (message, exception message, JSON): a templater for the group's
 * name, else the identity.
 */
export function logDisplayName(
  severity: string,
  attrs: AttrMap,
  ownAttrs: AttrMap,
  eventName: string,
  text: (s: string) => string = (s) => s,
): string {
  const message = textAttr(attrs, 'log.message');
  if (message !== '') return message.startsWith(severity) ? text(message) : `${severity} ${text(message)}`;
  const excType = textAttr(attrs, 'exception.type');
  const excMessage = textAttr(attrs, 'exception.message');
  if (excType !== '' || excMessage !== '') return joinTypeMessage(excType, text(excMessage));
  if (Object.keys(ownAttrs).length > 0) return text(JSON.stringify(ownAttrs));
  return eventName;
}
