import { sql } from '../../storage/sql';

/** The types of event rows: logs, messages and other span events. */
export const EVENT_TYPES_SQL = sql`('log', 'message', 'other-events')`;
