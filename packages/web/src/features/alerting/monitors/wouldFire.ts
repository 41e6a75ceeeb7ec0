import type { Bounds } from '../alerts/allowedRange';

const outside = (v: number, b: Bounds) => (b.min !== null && v < b.min) || (b.max !== null && v > b.max);

/**
 * How often a metric monitor would have fired over a chart's range: per series, the runs of
 * consecutive points outside the allowed range that last at least `forMinutes` (the monitor's
 * for-duration). Points are the chart's, so for ranges with buckets over a minute this reads the
 * bucket values, not every minute the evaluator sees.
 */
export function wouldFire(time: readonly string[], series: readonly (number | null)[][], bounds: Bounds, forMinutes: number): { times: number; outsidePoints: number; points: number } {
  let times = 0;
  let outsidePoints = 0;
  let points = 0;
  const t = time.map((x) => Date.parse(x));
  const step = t.length > 1 ? t[1] - t[0] : 60_000;
  for (const values of series) {
    let runStart = -1;
    let fired = false;
    values.forEach((v, i) => {
      if (v === null) {
        runStart = -1;
        fired = false;
        return;
      }
      points++;
      if (!outside(v, bounds)) {
        runStart = -1;
        fired = false;
        return;
      }
      outsidePoints++;
      if (runStart < 0) runStart = i;
      if (!fired && t[i] + step - t[runStart] >= forMinutes * 60_000) {
        fired = true;
        times++;
      }
    });
  }
  return { times, outsidePoints, points };
}
