import { sql } from '../../storage/sql';

/** The types of event rows: logs, messages and other span events. */
export const EVENT_TYPES_SQL = sql`('log', 'message', 'other-events')`;

/** A row that is a span (not a log or event): only spans have durations. */
export const IS_SPAN_SQL = sql`s.type NOT IN ${EVENT_TYPES_SQL}`;

/** The log systems that count as errors (severities error and fatal). */
const ERROR_LOG_SYSTEMS_SQL = sql`('log:error', 'log:fatal')`;

/**
 * `events:all`, the Events kind of the system picker (reference frontend §1.3.7): messages, other
 * span events, and error logs (recorded exceptions are `log:error`). Plain logs are `log:all`'s;
 * the reference's server left error logs out (query §1.8), so its Events view never showed the
 * exceptions it counted.
 */
export const EVENTS_ALL_SQL = sql`(s.type IN ('message', 'other-events') OR (s.type = 'log' AND s.system IN ('log:error', 'log:fatal', 'log:panic')))`;

/**
 * Whether a row counts as an error: a log by its severity (its system), anything else by its
 * status (a span's own, an event's host span's). Over `spans_index AS s`.
 */
export const IS_ERROR_SQL = sql`if(s.type = 'log', s.system IN ${ERROR_LOG_SYSTEMS_SQL}, s.status_code = 'error')`;

/**
 * The error count of rollup rows (`span_groups_1m/1h AS s`, one row per type and system): their
 * `error_count` follows status, so log rows count by their system instead.
 */
export const ROLLUP_ERROR_COUNT_SQL = sql`sum(if(s.type = 'log', if(s.system IN ${ERROR_LOG_SYSTEMS_SQL}, s.count, 0), s.error_count))`;
