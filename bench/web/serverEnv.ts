/**
 * The server as `npm start` runs it: errors-only logs, and without the test kit's check of every
 * answer against its contract (`LANTERN_CHECK_ANSWERS`, on in tests: a zod parse per answer on the
 * event loop, ~5 ms for a 100-series timeseries).
 */
export const SERVER_ENV = { LANTERN_LOG_LEVEL: 'error', LANTERN_CHECK_ANSWERS: '0' };
