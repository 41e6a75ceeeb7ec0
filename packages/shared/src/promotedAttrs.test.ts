import { describe, expect, it } from 'vitest';
import { PROMOTED_ATTRS } from './promotedAttrs';

describe('PROMOTED_ATTRS', () => {
  it('names each attribute and column once', () => {
    const attrs = PROMOTED_ATTRS.map(([a]) => a);
    const columns = PROMOTED_ATTRS.map(([, c]) => c);
    expect(new Set(attrs).size).toBe(attrs.length);
    expect(new Set(columns).size).toBe(columns.length);
  });
  it('stores each attribute in the column named after it (dots -> underscores)', () => {
    for (const [attr, column] of PROMOTED_ATTRS) expect(column).toBe(attr.replaceAll('.', '_'));
  });
});
