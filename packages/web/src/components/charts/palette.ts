/** The nine-colour palette every chart uses (reference frontend §3.2). */
export const PALETTE = [
  '#5470c6',
  '#91cc75',
  '#fac858',
  '#ee6666',
  '#73c0de',
  '#3ba272',
  '#fc8452',
  '#9a60b4',
  '#ea7ccc',
] as const;

/**
 * Colours for a list of series: explicit colours are kept unless one repeats an earlier one; the
 * rest get the palette colours not taken yet, in order, cycling when all are used.
 */
export function assignColors(explicit: (string | undefined)[]): string[] {
  const used = new Set<string>();
  const kept = explicit.map((c) => {
    if (!c || used.has(c)) return undefined;
    used.add(c);
    return c;
  });
  const free = PALETTE.filter((c) => !used.has(c));
  let next = 0;
  return kept.map((c) => {
    if (c) return c;
    const color = free.length > 0 && next < free.length ? free[next] : PALETTE[(next - free.length) % PALETTE.length];
    next++;
    return color;
  });
}
