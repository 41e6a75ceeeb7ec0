/**
 * The geometry of a 100x30 sparkline as SVG path data (reference frontend §3.7): the line, its light
 * area down to the base, and a dot for a value between two gaps (a line of no length draws nothing).
 * Kept free of React so the rules are unit-tested.
 */
export interface SparkGeometry {
  /** One `M x y L x y ...` run a stretch of values without a gap; '' when there is none. */
  line: string;
  /** The same runs closed down to the base, for the light fill. */
  area: string;
  /** Values alone between two gaps: [x, y]. */
  dots: [number, number][];
  /** The x of each bucket (the hover finds the nearest). */
  xs: number[];
}

export const SPARK_WIDTH = 100;
export const SPARK_HEIGHT = 30;
const PAD = 2;

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * `gapsAsZero`: a bucket without a value counts as 0 (an error rate where nothing failed: a 0 line,
 * not dots where there were spans). The y range takes 0 in, as a chart's value axis does, so a
 * series of zeros lies on the base.
 */
export function sparklineGeometry(
  values: readonly (number | null | undefined)[],
  opts: { gapsAsZero?: boolean; width?: number; height?: number } = {},
): SparkGeometry {
  const width = opts.width ?? SPARK_WIDTH;
  const height = opts.height ?? SPARK_HEIGHT;
  const vs = values.map((v) => (typeof v === 'number' && Number.isFinite(v) ? v : opts.gapsAsZero ? 0 : null));
  let lo = 0;
  let hi = 0;
  for (const v of vs) {
    if (v === null) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const span = hi - lo || 1;
  const n = vs.length;
  const xs = vs.map((_, i) => round(n <= 1 ? width / 2 : PAD + (i * (width - 2 * PAD)) / (n - 1)));
  const base = height - 1;
  const y = (v: number) => round(base - ((v - lo) / span) * (height - 1 - PAD));
  const baseY = y(Math.max(lo, Math.min(0, hi)));
  const line: string[] = [];
  const area: string[] = [];
  const dots: [number, number][] = [];
  let run: [number, number][] = [];
  const close = () => {
    if (run.length === 1) dots.push(run[0]);
    if (run.length > 1) {
      const pts = run.map(([x, yy]) => `${x} ${yy}`).join(' L');
      line.push(`M${pts}`);
      area.push(`M${run[0][0]} ${baseY} L${pts} L${run[run.length - 1][0]} ${baseY} Z`);
    }
    run = [];
  };
  vs.forEach((v, i) => {
    if (v === null) close();
    else run.push([xs[i], y(v)]);
  });
  close();
  return { line: line.join(' '), area: area.join(' '), dots, xs };
}

/** The bucket nearest an x position. */
export function nearestIndex(xs: readonly number[], x: number): number {
  let best = 0;
  for (let i = 1; i < xs.length; i++) if (Math.abs(xs[i] - x) < Math.abs(xs[best] - x)) best = i;
  return best;
}
