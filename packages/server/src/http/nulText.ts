import type { FastifyRequest } from 'fastify';
import { AppError } from './appError';

interface Step {
  value: unknown;
  key: string;
  parent: Step | null;
}

const pathOf = (step: Step | null, root: string): string => {
  const keys: string[] = [];
  for (let s = step; s?.parent; s = s.parent) keys.push(s.key);
  return [root, ...keys.reverse()].filter(Boolean).join('.');
};

/**
 * Values a walk without a set of seen objects visits before it stops: more than a 1 MB JSON body
 * can hold (one value per 2 bytes at most), so only a value that shares parts (a YAML alias)
 * reaches it.
 */
const UNSHARED_WALK_BUDGET = 1_000_000;

/**
 * Whether a value holds U+0000 in a string or key: true, false, or null when the walk ran out of
 * budget (a value whose parts are shared or contain themselves). No set of seen objects and no
 * path: adding each of a body's 400k nested arrays to a Set cost 250 ms of the event loop's CPU
 * for one request, walking them 5 ms.
 */
function hasNul(value: unknown): boolean | null {
  const stack: unknown[] = [value];
  let budget = UNSHARED_WALK_BUDGET;
  while (stack.length) {
    if (--budget < 0) return null;
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push(v[i]);
    } else if (typeof v === 'object' && v !== null && !Buffer.isBuffer(v)) {
      for (const key of Object.keys(v)) {
        if (key.includes('\u0000')) return true;
        stack.push((v as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/**
 * The path of the first string or key in a value (a parsed JSON body, query or params) holding
 * U+0000, or null. Walked without recursion, and the path is only spelled out for the hit (a body
 * can nest a few hundred thousand levels deep).
 */
export function nulPath(value: unknown, root: string): string | null {
  // Most values hold no NUL: that is answered by the cheap walk; the hit's path (or a shared value) by the one below.
  if (hasNul(value) === false) return null;
  const stack: Step[] = [{ value, key: '', parent: null }];
  // A YAML alias can make a value that contains itself.
  const seen = new Set<object>();
  while (stack.length) {
    const step = stack.pop()!;
    const v = step.value;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return pathOf(step, root);
    } else if (typeof v === 'object' && v !== null && !Buffer.isBuffer(v) && !seen.has(v)) {
      seen.add(v);
      for (const [key, child] of Object.entries(v)) {
        if (key.includes('\u0000')) return pathOf(step, root);
        stack.push({ value: child, key, parent: step });
      }
    }
  }
  return null;
}

/**
 * A NUL character (U+0000) in any text of an API request is refused with 400 `invalid_text`:
 * PostgreSQL cannot store it (a metadata write or a filter on it failed with a 500), and no name,
 * query or setting has a use for it. Ingest (DSN routes) reads its own formats and is not checked.
 */
export function refuseNulText(req: FastifyRequest): void {
  if (req.routeOptions.config.contract?.auth === 'dsn') return;
  for (const [value, where] of [
    [req.params, 'path'],
    [req.query, 'query'],
    [req.body, 'body'],
  ] as const) {
    const at = nulPath(value, '');
    if (at !== null)
      throw new AppError(
        'invalid_input',
        'invalid_text',
        `${at ? `${where} ${at}` : `the ${where}`} contains a NUL character (U+0000), which cannot be stored`,
      );
  }
}
