/**
 * Remote write's counter state on the main thread (promRemoteWrite.ts): UNDO_FIELDS numbers a
 * series, the OTLP path's rules (PromWriteMapper's restarts, then CumulativeState's step) kept as
 * numbers, the entries of a generation in one array (CounterSlab).
 */
export const UNDO_FIELDS = 8;
/** Restarts: whether a sample was seen (1), the last one's value and time, the start given (ms; 0: none). */
const SEEN = 0;
const LAST = 1;
const LAST_MS = 2;
const START_MS = 3;
/** The step: whether a point of start STEP_START_MS was taken (1), its time and value. */
const STEPPED = 4;
const STEP_START_MS = 5;
const STEP_MS = 6;
const STEP_VALUE = 7;

/** The counter state of a generation's entries (PromSeries.slab): UNDO_FIELDS numbers a slot. */
export class CounterSlab {
  v = new Float64Array(UNDO_FIELDS * 1024);
  private used = 0;

  /** A new slot's offset in `v` (its numbers 0). */
  add(): number {
    const at = UNDO_FIELDS * this.used++;
    if (at + UNDO_FIELDS > this.v.length) {
      const v = new Float64Array(2 * this.v.length);
      v.set(this.v);
      this.v = v;
    }
    return at;
  }
}

/** The slab of entries not yet kept: one slot of zeros (`keep` gives each a slot of its own). */
export const UNKEPT = new CounterSlab();
UNKEPT.add();

/**
 * A counter sample's delta, or null when it is dropped, from the state at `at` in `c` (which it
 * moves on): first the restart rule (the start time PromWriteMapper gave the OTLP point: none
 * until a value falls, then the restart's time), then CumulativeState.step's on (series, start):
 * an older point is dropped, a start's first point is a baseline unless the start is at or after
 * `startedAtMs` (the process start), a delta below 0 is 0.
 */
export function stepCounter(c: Float64Array, at: number, v: number, ms: number, startedAtMs: number): number | null {
  const seen = c[at + SEEN] === 1;
  let start = seen ? c[at + START_MS] : 0;
  if (seen && ms > c[at + LAST_MS] && v < c[at + LAST]) start = ms - 1;
  if (!seen || ms > c[at + LAST_MS]) {
    c[at + SEEN] = 1;
    c[at + LAST] = v;
    c[at + LAST_MS] = ms;
    c[at + START_MS] = start;
  }
  const hasPrev = c[at + STEPPED] === 1 && c[at + STEP_START_MS] === start;
  if (hasPrev && ms <= c[at + STEP_MS]) return null;
  const prev = c[at + STEP_VALUE];
  c[at + STEPPED] = 1;
  c[at + STEP_START_MS] = start;
  c[at + STEP_MS] = ms;
  c[at + STEP_VALUE] = v;
  if (!hasPrev) return start > 0 && start >= startedAtMs ? v : null;
  return v > prev ? v - prev : 0;
}
