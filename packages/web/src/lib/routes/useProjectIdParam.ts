import { useParams } from 'react-router-dom';

/** Project ids are digits only (spec §2.1); anything else counts as no project. */
export function parseProjectId(raw: string | undefined): number | undefined {
  return raw !== undefined && /^\d{1,10}$/.test(raw) ? Number(raw) : undefined;
}

/** The :projectId of the page's own route. */
export function useProjectIdParam(): number | undefined {
  return parseProjectId(useParams().projectId);
}
