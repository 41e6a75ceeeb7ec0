import { expect } from 'vitest';
import type { OverloadResult } from './overload';

/**
 * What an overload run must show, for every signal: answers throughout (success, or 429 with
 * Retry-After for what was refused, never a dropped connection), the limit reached, memory
 * bounded, and every acknowledged request stored.
 */
export function expectOverloadHandled(result: OverloadResult): void {
  expect(result.statuses['0'] ?? 0).toBe(0); // never a dropped connection
  expect(Object.keys(result.statuses).every((s) => ['200', '429'].includes(s))).toBe(true);
  expect(result.statuses['429']).toBeGreaterThan(0);
  expect(result.retryAfterShare).toBe(1);
  expect(result.peakRssBytes).toBeLessThan(3 * 1024 ** 3);
  expect(result.lost).toEqual([]);
}
