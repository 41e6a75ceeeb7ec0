import { useEffect } from 'react';
import { useCurrentUser } from '../../features/auth/authApi';
import { truncate } from '../../lib/text/truncate';
import { pageTitle } from './pageTitle';
import { useRouteProjectId } from './useRouteProjectId';

/** Longest page part of a tab title (span and trace names can be whole SQL statements). */
const PAGE_MAX = 60;

/**
 * Every screen names itself in the browser tab as `<page> · <project> · Lantern`; the project is
 * the route's own (none on Login, Not found and the other project-less screens). `page` may be
 * undefined while the screen's data loads.
 */
export function usePageTitle(page: string | undefined): void {
  const projectId = useRouteProjectId();
  const { data } = useCurrentUser();
  const project = projectId === undefined ? undefined : data?.projects.find((p) => p.id === projectId)?.name;
  const title = pageTitle(page === undefined ? undefined : truncate(page, PAGE_MAX), project);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
