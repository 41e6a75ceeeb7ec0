/**
 * A page loaded before Lantern was upgraded or rebuilt asks for code chunks the new build does not
 * have (their names carry a hash of their content), and the server answers 404. Vite reports that
 * as `vite:preloadError`: the page reloads to get the new build, at most once a minute, so a chunk
 * that is truly missing ends in the screen's error instead of a reload loop.
 */
const RELOADED_AT = 'lantern.staleBuildReloadAt';

export function reloadOnStaleBuild(): void {
  window.addEventListener('vite:preloadError', (event) => {
    const last = Number(sessionStorage.getItem(RELOADED_AT) ?? 0);
    if (Date.now() - last < 60_000) return;
    event.preventDefault();
    sessionStorage.setItem(RELOADED_AT, String(Date.now()));
    window.location.reload();
  });
}
