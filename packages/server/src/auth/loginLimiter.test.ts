import { describe, expect, it } from 'vitest';
import { createLoginLimiter, loginKeys } from './loginLimiter';

const MIN = 60_000;

function limiter(maxFailures = 10, windowMs = 5 * MIN, maxKeys?: number) {
  const clock = { t: 1_000_000 };
  return { clock, l: createLoginLimiter({ maxFailures, windowMs, now: () => clock.t, maxKeys }) };
}

describe('login limiter', () => {
  it('allows 10 failures in the window, then refuses until the oldest one ages out', () => {
    const { clock, l } = limiter();
    const keys = loginKeys('10.0.0.1', 'A@Example.com');
    for (let i = 0; i < 10; i++) {
      expect(l.retryAfterSec(keys)).toBe(0);
      l.fail(keys);
      clock.t += 1000;
    }
    // First failure at t0, now t0 + 10 s: free again at t0 + 300 s.
    expect(l.retryAfterSec(keys)).toBe(290);
    clock.t += 289_000;
    expect(l.retryAfterSec(keys)).toBe(1);
    clock.t += 1000;
    expect(l.retryAfterSec(keys)).toBe(0);
    // One failure left the window: one more attempt, then blocked again until the second ages out.
    l.fail(keys);
    expect(l.retryAfterSec(keys)).toBe(1);
  });

  it('counts per address and per account independently', () => {
    const { l } = limiter(3);
    for (let i = 0; i < 3; i++) l.fail(loginKeys('10.0.0.1', `user${i}@example.com`));
    // The address is blocked for any account; the accounts, each with one failure, are not.
    expect(l.retryAfterSec(loginKeys('10.0.0.1', 'other@example.com'))).toBeGreaterThan(0);
    expect(l.retryAfterSec(loginKeys('10.0.0.2', 'user0@example.com'))).toBe(0);
    for (const addr of ['10.0.0.3', '10.0.0.4', '10.0.0.5']) l.fail(loginKeys(addr, 'victim@example.com'));
    // An account under attack from many addresses is blocked from a fresh address too.
    expect(l.retryAfterSec(loginKeys('10.0.0.9', 'VICTIM@example.com'))).toBeGreaterThan(0);
  });

  it('forgets the keys of a successful sign-in', () => {
    const { l } = limiter(2);
    const keys = loginKeys('10.0.0.1', 'a@example.com');
    l.fail(keys);
    l.fail(keys);
    expect(l.retryAfterSec(keys)).toBeGreaterThan(0);
    l.reset(keys);
    expect(l.retryAfterSec(keys)).toBe(0);
  });

  it('tracks a bounded number of keys, dropping the least recently failed', () => {
    const { l } = limiter(1, 5 * MIN, 2);
    l.fail(['a']);
    l.fail(['b']);
    l.fail(['c']);
    expect(l.retryAfterSec(['a'])).toBe(0);
    expect(l.retryAfterSec(['b'])).toBeGreaterThan(0);
    expect(l.retryAfterSec(['c'])).toBeGreaterThan(0);
  });
});
