import { paths } from '../../lib/routes/paths';

/**
 * Where the project picker goes (spec §2.2): the same page for the new project when the current
 * route's only parameter is projectId, otherwise that project's Overview. Filters in the query
 * string are dropped: they name attributes and groups of the old project.
 */
export function projectSwitchTarget(
  pathname: string,
  params: Record<string, string | undefined>,
  projectId: number,
): string {
  const names = Object.keys(params).filter((name) => name !== '*' && params[name] !== undefined);
  const current = params.projectId;
  if (names.length !== 1 || names[0] !== 'projectId' || current === undefined) return paths.overview(projectId);
  // Other segments of such a route are static words, so the project id is the only digits segment.
  const segments = pathname.split('/');
  const index = segments.indexOf(current);
  if (index < 0) return paths.overview(projectId);
  segments[index] = String(projectId);
  return segments.join('/');
}
