import { describe, it, expect } from 'vitest';
import { truncateUtf8 } from './truncate';

describe('truncateUtf8 (reference ingest §2.10)', () => {
  it.each([
    ['short ascii untouched', 'hello', 10, 'hello'],
    ['exactly the limit untouched', 'abcdefghij', 10, 'abcdefghij'],
    ['cut to N-3 bytes plus ...', 'abcdefghijk', 10, 'abcdefg...'],
    ['multi-byte fits by bytes', 'ééééé', 10, 'ééééé'],
    ['never splits a 2-byte char', 'éééééé', 10, 'ééé...'],
    ['never splits a 3-byte char', '日本語日本語', 10, '日本...'],
    ['never splits a 4-byte char (surrogate pair)', 'a😀😀😀', 10, 'a😀...'],
    ['empty string', '', 5, ''],
  ])('%s', (_name, input, max, want) => {
    const out = truncateUtf8(input, max);
    expect(out).toBe(want);
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(max);
  });

  it('cuts an 81-byte name to 80 bytes', () => {
    const out = truncateUtf8('x'.repeat(81), 80);
    expect(out).toBe('x'.repeat(77) + '...');
  });
});
