import { describe, expect, it } from 'vitest';
import { countOf, listCountText } from './countText';

describe('countOf', () => {
  it.each([
    [0, 'groups'],
    [1, 'group'],
    [2, 'groups'],
    [1500, 'groups'],
  ])('%d reads %s', (n, noun) => expect(countOf(n, 'group')).toBe(`${n.toLocaleString('en-US')} ${noun}`));

  it('takes an irregular plural', () => expect(countOf(2, 'query', 'queries')).toBe('2 queries'));
});

describe('listCountText', () => {
  it.each([
    [{ shown: 1, total: 1, capped: false }, '1 group'],
    [{ shown: 7, total: 7, capped: false }, '7 groups'],
    [{ shown: 1000, total: 1000, capped: true }, 'more than 1,000 groups'],
    [{ shown: 5, total: 20, capped: false }, '5 of 20 groups'],
    [{ shown: 1, total: 20, capped: false }, '1 of 20 groups'],
    [{ shown: 5, total: 1000, capped: true }, '5 of more than 1,000 groups'],
    [{ shown: 0, total: 3, capped: false }, '0 of 3 groups'],
  ])('%j reads %j', (count, text) => expect(listCountText(count, 'group')).toBe(text));
});
