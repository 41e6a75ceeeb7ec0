import { describe, expect, it } from 'vitest';
import { truncate, truncateMiddle } from './truncate';

describe('truncation', () => {
  it('cuts the end', () => {
    expect(truncate('checkout', 10)).toBe('checkout');
    expect(truncate('checkout service', 9)).toBe('checkout…');
  });

  it('keeps both ends in the middle cut', () => {
    expect(truncateMiddle('short', 10)).toBe('short');
    expect(truncateMiddle('http.server.request.duration', 13)).toBe('http....ation');
    expect(truncateMiddle('abcdefghij', 8)).toBe('abc...ij');
    expect(truncateMiddle('abcdefghij', 8)).toHaveLength(8);
  });
});
