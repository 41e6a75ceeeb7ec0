import { ERROR_SYSTEMS as ERROR_SYSTEM_LIST, type SpanKind } from '@lantern/shared';
import type { AttrMap } from '../spanRow';
import { textAttr } from './attrValue';
import { joinName, joinTypeMessage, logDisplayName } from './displayName';
import { groupTemplate, templateMessage } from './messageTemplate';
import { normalizeSeverity } from './severity';
import type { SpanClass } from './spanSystem';

/**
 * System, group keys and display name of an event row (reference ingest §2.8,
 * `assignEventSystemAndGroupID`): `log` events and anything carrying `log.message` become
 * `log:<severity>`, exceptions `log:error`, RPC/messaging `message` events `message:<system>`,
 * everything else `other-events`. Log and exception groups are named by the message's template
 * and hash the template's words (the message's words, messageTemplate.ts), so one template is
 * one group.
 */

/** Systems that count as errors (event_error_count, error alerts). */
export const ERROR_SYSTEMS: ReadonlySet<string> = new Set(ERROR_SYSTEM_LIST);

const LOG_KEYS = ['log.severity'];
const EXCEPTION_KEYS = ['exception.type'];
const MESSAGE_KEYS = ['rpc.system', 'rpc.service', 'rpc.method', 'message.type'];
const NO_KEYS: readonly string[] = [];
/** Log and exception templates name groups whose id hashes words only (messageTemplate). */
const GROUP_NAME = { groupName: true } as const;

export interface HostSpan {
  name: string;
  kind: SpanKind;
}

/** The reference renames `error` events to `exception` before classifying. */
export function canonicalEventName(name: string): string {
  return name === 'error' ? 'exception' : name;
}

/**
 * `attrs` are the event's merged attributes (own + host's); `ownAttrs` only the event's own.
 * For log rows, `log.severity` in `attrs` is set to the normalised severity.
 */
export function classifyEvent(eventName: string, attrs: AttrMap, ownAttrs: AttrMap, host: HostSpan): SpanClass {
  if (eventName === 'log') return logClass(eventName, attrs, ownAttrs);
  if (eventName === 'exception') return exceptionClass(attrs);
  if (eventName === 'message') return messageClass(attrs, host);
  if (textAttr(attrs, 'log.message')) return logClass(eventName, attrs, ownAttrs);
  if (textAttr(attrs, 'exception.message')) return exceptionClass(attrs);
  return {
    type: 'other-events',
    system: 'other-events',
    hashKeys: NO_KEYS,
    hashSuffix: '',
    displayName: '',
    groupName: '',
  };
}

/**
 * QUIRK fixed: the reference normalises severity only for events named `log`, so another event
 * with `log.severity: warning` lands in `log:warning`. Here every log row gets the normalised
 * severity (INFO when missing or unrecognised), so there is one `log:warn`.
 */
function logClass(eventName: string, attrs: AttrMap, ownAttrs: AttrMap): SpanClass {
  const severity = normalizeSeverity(attrs['log.severity']) ?? 'INFO';
  attrs['log.severity'] = severity;
  const message = textAttr(attrs, 'log.message');
  const group = message ? groupTemplate(templateMessage(message, GROUP_NAME)) : undefined;
  return {
    type: 'log',
    system: `log:${severity.toLowerCase()}`,
    hashKeys: LOG_KEYS,
    hashSuffix: group ? group.words.join(' ') : '',
    displayName: logDisplayName(severity, attrs, ownAttrs, eventName),
    groupName: logDisplayName(severity, attrs, ownAttrs, eventName, (s) =>
      s === message && group ? group.name : groupTemplate(templateMessage(s, GROUP_NAME)).name,
    ),
  };
}

function exceptionClass(attrs: AttrMap): SpanClass {
  const message = textAttr(attrs, 'exception.message');
  const group = message ? groupTemplate(templateMessage(message, GROUP_NAME)) : undefined;
  const type = textAttr(attrs, 'exception.type');
  return {
    type: 'log',
    system: 'log:error',
    hashKeys: EXCEPTION_KEYS,
    hashSuffix: group ? group.words.join(' ') : '',
    displayName: joinTypeMessage(type, message),
    groupName: joinTypeMessage(type, group ? group.name : ''),
  };
}

function messageClass(attrs: AttrMap, host: HostSpan): SpanClass {
  const system = textAttr(attrs, 'rpc.system', 'messaging.system') || 'unknown';
  const op = textAttr(attrs, 'messaging.operation', 'messaging.operation.name');
  const messageType = textAttr(attrs, 'message.type');
  let displayName: string;
  if (op) displayName = joinName(host.name, op);
  else if (messageType) displayName = joinName(host.name, messageType);
  else if (host.kind !== 'internal') displayName = joinName(host.name, host.kind);
  else displayName = 'message';
  return {
    type: 'message',
    system: `message:${system}`,
    hashKeys: MESSAGE_KEYS,
    hashSuffix: '',
    displayName,
    groupName: '',
  };
}
