import type { AttrMap } from '../spanRow';
import { textAttr } from './attrValue';
import { DISPLAY_NAME_MAX_BYTES, truncateUtf8 } from './truncate';

/**
 * Display names (reference ingest §2.9): what the Groups page and the trace timeline show.
 * A `display.name` attribute overrides everything (and is removed, it has done its job); else
 * the rule's text (db statement, log message, exception); else event name, span name, `<empty>`.
 */
export function displayNameFor(attrs: AttrMap, ruleName: string, eventName: string, name: string): string {
  const override = attrs['display.name'];
  if (override !== undefined) delete attrs['display.name'];
  if (typeof override === 'string' && override !== '') return truncateUtf8(override, DISPLAY_NAME_MAX_BYTES);
  if (ruleName !== '') return truncateUtf8(ruleName, DISPLAY_NAME_MAX_BYTES);
  return truncateUtf8(eventName || name || '<empty>', DISPLAY_NAME_MAX_BYTES);
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
 */
export function logDisplayName(severity: string, attrs: AttrMap, ownAttrs: AttrMap, eventName: string): string {
  const message = textAttr(attrs, 'log.message');
  if (message !== '') return message.startsWith(severity) ? message : `${severity} ${message}`;
  const excType = textAttr(attrs, 'exception.type');
  const excMessage = textAttr(attrs, 'exception.message');
  if (excType !== '' || excMessage !== '') return joinTypeMessage(excType, excMessage);
  if (Object.keys(ownAttrs).length > 0) return JSON.stringify(ownAttrs);
  return eventName;
}
