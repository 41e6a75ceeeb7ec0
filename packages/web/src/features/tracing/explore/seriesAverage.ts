/**
 * The average of a series over the buckets with data: a null bucket (a minute without spans) is
 * unknown, not 0, so it is left out. Null when no bucket has data.
 */
export function averageOfPresent(values: readonly (number | null | undefined)[]): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (typeof v !== 'number' || !Number.isFinite(v)) continue;
    sum += v;
    n++;
  }
  return n ? sum / n : null;
}
