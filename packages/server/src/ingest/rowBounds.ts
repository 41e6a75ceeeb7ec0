/**
 * Time and duration bounds every stored row must meet. A row outside them (a start time of 0 or in
 * the year 30000, a duration of 10^150 ns) cannot be written, and since a batch is written whole
 * it would fail every other client's rows in the same batch: such rows are dropped here and
 * reported like any other rejected record. (Times before 2001-09-09, under 10 digits of seconds,
 * are not even read as times by the engine; no retention keeps rows that old anyway.)
 */
export const MIN_TIME_NS = 1_000_000_000n * 1_000_000_000n;
// 2106: the metrics from spans put a span's minute into a datapoint row, whose time is a DateTime.
export const MAX_TIME_NS = BigInt(Date.UTC(2106, 0, 1)) * 1_000_000n;
export const MAX_DURATION_NS = 100 * 365 * 86_400 * 1e9;

/** Whether a time can be stored (an event's own time outside this takes its span's). */
export const storableTime = (ns: bigint): boolean => ns >= MIN_TIME_NS && ns < MAX_TIME_NS;
