/**
 * The event systems that count as errors: logs of severity error, fatal or panic (recorded
 * exceptions are `log:error`). Ingest counts them per span (`event_error_count`), the Events view
 * lists them beside messages, and standalone ones raise error alerts. One list for all of them.
 */
export const ERROR_SYSTEMS = ['log:error', 'log:fatal', 'log:panic'] as const;

/** ERROR_SYSTEMS as an SQL list of string literals (they hold no quote). */
export const ERROR_SYSTEMS_SQL_LIST = `(${ERROR_SYSTEMS.map((s) => `'${s}'`).join(', ')})`;
