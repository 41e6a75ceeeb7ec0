/**
 * The longest text a request may store: names (dashboards, items, metrics, aliases, attributes)
 * and free text (queries, descriptions, templates, matcher values). Beyond them a body is refused
 * with 400 rather than stored.
 */
export const MAX_NAME_LENGTH = 1000;
export const MAX_TEXT_LENGTH = 10_000;
/** What a text over its limit is told (`query: is longer than 10000 characters`). */
export const tooLong = (max: number): string => `is longer than ${max} characters`;

/**
 * The largest integer a metadata column holds (PostgreSQL `integer`, also the `serial` ids):
 * ids, sizes, positions and indexes beyond it are refused (or not found) instead of failing the query.
 */
export const MAX_DB_INT = 2_147_483_647;
