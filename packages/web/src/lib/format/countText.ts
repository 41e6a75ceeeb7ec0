/**
 * Counts in sentences: singular and plural, and what a count of a list really says (issue 20):
 * "more than N" only when the server capped the list, "N of M" when a filter shows part of it.
 */

/** "1 group", "3 groups", "0 spans". `plural` defaults to `noun` + "s". */
export function countOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? noun : plural}`;
}

export interface ListCount {
  /** Rows shown after client-side filters. */
  shown: number;
  /** Rows the server answered. */
  total: number;
  /** The server stopped at `total`: more rows exist. */
  capped: boolean;
}

/** "3 groups", "more than 1,000 groups", "5 of 20 groups", "5 of more than 1,000 groups". */
export function listCountText({ shown, total, capped }: ListCount, noun: string, plural = `${noun}s`): string {
  if (shown === total) return capped ? `more than ${countOf(total, noun, plural)}` : countOf(total, noun, plural);
  const of = capped ? `more than ${total.toLocaleString('en-US')}` : total.toLocaleString('en-US');
  return `${shown.toLocaleString('en-US')} of ${of} ${total === 1 ? noun : plural}`;
}
