import { textSearchWhere } from '@lantern/shared';
import { defaultGroupQuery, joinQuery } from './query/defaultQueries';

/**
 * The span-group query the top-bar search lands on for free text: the default group query of the
 * system it lands on, filtered to rows whose span name, event name, display name or log /
 * exception message contains the text (shared `textSearchWhere`, a quoted string literal).
 */
export function spanSearchQuery(text: string, system = 'all'): string {
  return joinQuery([defaultGroupQuery([system]), textSearchWhere(text)]);
}
