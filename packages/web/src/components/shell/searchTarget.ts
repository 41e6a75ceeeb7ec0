import { looksLikeTraceId, normalizeTraceId } from '@lantern/shared';
import { spanSearchQuery } from '../../features/tracing/spanSearchQuery';
import { paths } from '../../lib/routes/paths';

/**
 * Where the top-bar search goes on Enter (spec §2.2): a 32-hex or dashed-UUID trace id opens the
 * trace lookup page; other text opens the span group list of the current project filtered by name.
 * Null when there is nothing to do (empty text, or free text without a project to search in).
 */
export function searchTarget(input: string, projectId: number | undefined): string | null {
  const text = input.trim();
  if (!text) return null;
  if (looksLikeTraceId(text)) return paths.traceFind(normalizeTraceId(text)!);
  if (projectId === undefined) return null;
  return paths.spanGroups(projectId, { system: 'all', query: spanSearchQuery(text) });
}
