/**
 * Login rate limiting: at most `maxFailures` failed sign-ins per key (a client address, an account)
 * within a sliding window of `windowMs`; the next attempt is refused until the oldest failure in
 * the window has aged out. A successful sign-in clears the keys it was checked under. Pure apart
 * from the injected clock, so tests step time instead of sleeping.
 *
 * Memory is bounded: at most `maxKeys` keys are tracked (the least recently failed go first), and
 * each key keeps at most `maxFailures` timestamps.
 */
export interface LoginLimiter {
  /** Seconds until an attempt under these keys is allowed again, or 0 when it is allowed now. */
  retryAfterSec(keys: string[]): number;
  /** Records a failed attempt under each key. */
  fail(keys: string[]): void;
  /** Forgets the failures under these keys (a successful sign-in). */
  reset(keys: string[]): void;
}

export interface LoginLimiterOptions {
  maxFailures: number;
  windowMs: number;
  now?: () => number;
  maxKeys?: number;
}

export function createLoginLimiter({
  maxFailures,
  windowMs,
  now = Date.now,
  maxKeys = 100_000,
}: LoginLimiterOptions): LoginLimiter {
  // Insertion order doubles as recency: a key is re-inserted on each failure.
  const failures = new Map<string, number[]>();

  const recent = (key: string, at: number): number[] => {
    const times = failures.get(key);
    if (!times) return [];
    const kept = times.filter((t) => t > at - windowMs);
    if (kept.length === 0) failures.delete(key);
    else if (kept.length !== times.length) failures.set(key, kept);
    return kept;
  };

  return {
    retryAfterSec(keys) {
      const at = now();
      let waitMs = 0;
      for (const key of keys) {
        const times = recent(key, at);
        if (times.length >= maxFailures) {
          // Allowed again once enough of the oldest failures have left the window.
          const freeAt = times[times.length - maxFailures] + windowMs;
          waitMs = Math.max(waitMs, freeAt - at);
        }
      }
      return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
    },
    fail(keys) {
      const at = now();
      for (const key of keys) {
        const times = [...recent(key, at), at].slice(-maxFailures);
        failures.delete(key);
        failures.set(key, times);
      }
      while (failures.size > maxKeys) failures.delete(failures.keys().next().value!);
    },
    reset(keys) {
      for (const key of keys) failures.delete(key);
    },
  };
}

/** The keys a sign-in attempt is counted under. */
export const loginKeys = (address: string, email: string): string[] => [
  `addr:${address}`,
  `account:${email.trim().toLowerCase()}`,
];
