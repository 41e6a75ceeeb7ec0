import { isSignedOutByUser } from '../features/auth/authApi';
import { paths } from '../lib/routes/paths';

/**
 * Login, remembering the page that needed a session (`?next=`), so that signing in returns there:
 * a deep link opened without a session, or a page whose session ended while it was open. Not
 * after the user signed out: Login then starts afresh.
 */
export function loginReturningTo(here: { pathname: string; search: string }): string {
  const next = here.pathname + here.search;
  const keep = !isSignedOutByUser() && next !== paths.home() && here.pathname !== paths.login();
  return paths.login(keep ? { next } : undefined);
}
