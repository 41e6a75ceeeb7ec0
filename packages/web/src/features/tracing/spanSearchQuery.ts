import { SPAN_GROUP_QUERY } from './query/defaultQueries';

/**
 * The span-list query the top-bar search sends for free text (spec §2.2: groups whose span name or
 * event name contains the text). The text is a double-quoted string literal of the query language, so quotes and
 * backslashes are escaped.
 */
export function quoteQueryString(text: string): string {
  return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

export function spanSearchQuery(text: string): string {
  return `${SPAN_GROUP_QUERY} | where {.name,.event_name} contains ${quoteQueryString(text.trim())}`;
}
