import { hashKey, type QueryClient } from '@tanstack/react-query';
import { currentUserKey } from './authApi';

const KEY = 'lantern.signedIn';

/**
 * Whether this browser had a session when it last asked: a hint, so that a page opened from its
 * address can start its first calls beside the session check instead of after it. The server still
 * decides: with a stale hint those calls answer 401, which signs the page out as any call does after
 * the session ends, and the session check then clears the hint.
 */
export function sessionHint(): boolean {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false; // storage turned off
  }
}

/** Keeps the hint in step with every answer about the current user (session check, login, logout, a 401). */
export function keepSessionHint(qc: QueryClient): void {
  const current = hashKey(currentUserKey);
  qc.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.query.queryHash !== current) return;
    const user: unknown = event.query.state.data;
    if (user === undefined) return;
    try {
      if (user) localStorage.setItem(KEY, '1');
      else localStorage.removeItem(KEY);
    } catch {
      // storage turned off: no hint, the pages wait for the session check
    }
  });
}
