import { looksLikeTraceId, normalizeTraceId, textSearchSystem } from '@lantern/shared';
import { spanSearchQuery } from '../../features/tracing/spanSearchQuery';
import { paths } from '../../lib/routes/paths';

/**
 * What the top-bar search does on Enter (spec §2.2): a 32-hex or dashed-UUID trace id opens the
 * trace lookup page; other text searches the span groups of the current project (`search`: the
 * caller asks the server which systems match, then goes to `searchPath`). Null when there is
 * nothing to do (empty text, or free text without a project to search in).
 */
export type SearchAction = { kind: 'go'; to: string } | { kind: 'search'; projectId: number; text: string } | null;

export function searchAction(input: string, projectId: number | undefined): SearchAction {
  const text = input.trim();
  if (!text) return null;
  if (looksLikeTraceId(text)) return { kind: 'go', to: paths.traceFind(normalizeTraceId(text)!) };
  if (projectId === undefined) return null;
  return { kind: 'search', projectId, text };
}

/**
 * The group list a text search lands on, from the systems the search matched (null when that
 * could not be asked): the log groups when only logs match, else all systems.
 */
export function searchPath(
  projectId: number,
  text: string,
  matched: readonly { system: string; count: number }[] | null,
): string {
  const system = matched ? textSearchSystem(matched) : 'all';
  return paths.spanGroups(projectId, { system, query: spanSearchQuery(text, system) });
}
