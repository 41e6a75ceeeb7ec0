/** Shortens names for breadcrumbs and titles (spec §9 truncation limits), ending with an ellipsis. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/**
 * Keeps both ends of long keys and values (legend names 40, suggestion lists 80: spec §9), where the
 * end is as telling as the start (`http.server.request.duration`, file paths).
 */
export function truncateMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = Math.max(0, max - 3);
  return `${text.slice(0, Math.ceil(keep / 2))}...${text.slice(text.length - Math.floor(keep / 2))}`;
}
