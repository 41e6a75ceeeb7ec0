import { selectedValuesOf, withValuesOf } from '../../../lib/query/facetFilter';
import { joinQuery, queryParts } from './defaultQueries';

/** Facet state in a spans query string (see `lib/query/facetFilter`). */
export const selectedValues = (query: string, attr: string): string[] => selectedValuesOf(queryParts(query), attr);

export const withValues = (query: string, attr: string, values: string[]): string => {
  const parts = queryParts(query);
  const next = withValuesOf(parts, attr, values);
  return next === parts ? query : joinQuery(next);
};
