/** Max pages a pager offers (spec platform §9). */
export const MAX_PAGES = 1000;

/** Which slice a page shows: 0-based [start, end), clamping the page into 1..pages. */
export function pagerWindow(
  page: number,
  perPage: number,
  total: number,
): { page: number; pages: number; start: number; end: number } {
  const pages = Math.min(MAX_PAGES, Math.max(1, Math.ceil(total / perPage)));
  const p = Math.min(Math.max(1, page), pages);
  const start = (p - 1) * perPage;
  return { page: p, pages, start: Math.min(start, total), end: Math.min(start + perPage, total) };
}
