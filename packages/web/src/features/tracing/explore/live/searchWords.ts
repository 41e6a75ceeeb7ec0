import { parseQuery } from '@lantern/shared';

/**
 * The words a query searches for: the values of its `contains` filters (the top-bar search's
 * `where {...} contains "text"`, or one typed by hand), to mark in the rows that match.
 */
export function searchWords(query: string): string[] {
  const words = new Set<string>();
  for (const part of parseQuery(query)) {
    if (part.ast?.kind !== 'where') continue;
    for (const f of part.ast.filters)
      if (f.op === 'contains') for (const v of f.values) if (v.value.trim()) words.add(v.value.trim());
  }
  return [...words];
}

/** `text` cut into pieces, `marked` where a word (any case) stands. */
export function markWords(text: string, words: readonly string[]): { text: string; marked: boolean }[] {
  if (words.length === 0 || text === '') return [{ text, marked: false }];
  const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pieces = text.split(new RegExp(`(${escaped.join('|')})`, 'gi'));
  const lower = new Set(words.map((w) => w.toLowerCase()));
  return pieces.filter((p) => p !== '').map((p) => ({ text: p, marked: lower.has(p.toLowerCase()) }));
}
