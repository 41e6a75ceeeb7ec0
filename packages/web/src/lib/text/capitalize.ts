/** Server messages are shown with their first letter capitalised (spec §8). */
export function capitalize(text: string): string {
  return text.length === 0 ? text : text[0].toUpperCase() + text.slice(1);
}
