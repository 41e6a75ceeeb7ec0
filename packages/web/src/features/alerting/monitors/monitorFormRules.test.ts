import { describe, expect, it } from 'vitest';
import { withBlankRow } from './monitorFormRules';

describe('monitor form rules', () => {
  it('always keeps one blank matcher row (spec platform §2.10)', () => {
    const filled = { attr: 'service.name', op: '=' as const, value: 'checkout' };
    const blank = { attr: '', op: '=' as const, value: '' };
    expect(withBlankRow([])).toEqual([blank]);
    expect(withBlankRow([filled])).toEqual([filled, blank]);
    expect(withBlankRow([filled, blank])).toEqual([filled, blank]);
    expect(withBlankRow([blank, filled])).toEqual([blank, filled]);
    // A row with only an attribute is not blank.
    expect(withBlankRow([{ ...blank, attr: 'x' }])).toHaveLength(2);
  });
});
