/** Shortens names for breadcrumbs and titles (spec §9 truncation limits), ending with an ellipsis. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}
