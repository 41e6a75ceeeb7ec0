import { useMatches } from 'react-router-dom';
import { parseProjectId } from '../../lib/routes/useProjectIdParam';

/**
 * The shell sits above the page routes, so useParams there cannot see the page's :projectId; the
 * deepest route match can. Returns the params too, for the project picker.
 */
export function useRouteParams(): Record<string, string | undefined> {
  const matches = useMatches();
  return matches.length > 0 ? matches[matches.length - 1].params : {};
}

export function useRouteProjectId(): number | undefined {
  return parseProjectId(useRouteParams().projectId);
}
