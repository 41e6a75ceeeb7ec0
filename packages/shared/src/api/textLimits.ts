/**
 * The longest text a request may store: names (dashboards, items, metrics, aliases, attributes)
 * and free text (queries, descriptions, templates, matcher values). Beyond them a body is refused
 * with 400 rather than stored.
 */
export const MAX_NAME_LENGTH = 1000;
export const MAX_TEXT_LENGTH = 10_000;
