import type { AttrMap } from '../spanRow';
import { logfmtParams } from './logfmt';
import { flattenParams, parseJsonObject } from './logParams';

/**
 * Log message parsing (reference ingest §2.6). A message that is a JSON object is a structured
 * log line: its `log`, `message` or `msg` field is the real message and every other field is a
 * parameter. A text message contributes its logfmt `key=value` pairs as parameters. The group id
 * later hashes only the message's words (messageWords), so lines that differ in values group
 * together.
 */
export interface ParsedLogMessage {
  /** The message to store (the real message of a JSON line, else the text itself). */
  message: string;
  params: AttrMap;
}

const MESSAGE_KEYS = ['log', 'message', 'msg'] as const;

export function parseLogMessage(text: string): ParsedLogMessage {
  const obj = parseJsonObject(text);
  if (obj === undefined) return { message: text, params: logfmtParams(text) };
  const message = popMessage(obj);
  const params = flattenParams(obj);
  if (message === undefined) return { message: text, params };
  return { message, params: { ...logfmtParams(message), ...params } };
}

/** Removes and returns the first non-empty string among `log`, `message`, `msg`. */
export function popMessage(obj: Record<string, unknown>): string | undefined {
  for (const key of MESSAGE_KEYS) {
    const v = obj[key];
    if (typeof v === 'string' && v !== '') {
      delete obj[key];
      return v;
    }
  }
  return undefined;
}
