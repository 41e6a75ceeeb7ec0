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
    screenTitle = title;
    if (notFoundShown === 0) document.title = title;
  }, [title]);
}

/**
 * A screen that finds nothing to show renders the not-found page inside itself, and React runs a
 * child's effects before its parent's: while a not-found page is mounted it names the tab, and the
 * screen's own title is kept for when it goes.
 */
let notFoundShown = 0;
let screenTitle: string | null = null;
const NOT_FOUND_TITLE = pageTitle('Page not found', undefined);

/** The not-found page's title, over whichever screen renders it. */
export function useNotFoundTitle(): void {
  useEffect(() => {
    notFoundShown++;
    document.title = NOT_FOUND_TITLE;
    return () => {
      notFoundShown--;
      if (notFoundShown === 0 && screenTitle !== null) document.title = screenTitle;
    };
  }, []);
}
