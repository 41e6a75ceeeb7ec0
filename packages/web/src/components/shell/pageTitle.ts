/** The browser tab's title: `<page> · <project> · Lantern`, leaving out the parts a screen lacks. */
export function pageTitle(page: string | undefined, project: string | undefined): string {
  return [page, project, 'Lantern'].filter((part) => part !== undefined && part.trim() !== '').join(' · ');
}
