import { textSearchWhere } from '@lantern/shared';
import { describe, expect, it } from 'vitest';
import { markWords, searchWords } from './searchWords';

describe('search words of a live tail', () => {
  it('are the values of contains filters, the top-bar search included', () => {
    expect(searchWords(`${textSearchWhere('card declined')} | where service.name = "api"`)).toEqual(['card declined']);
    expect(searchWords('where log.message contains "timeout" or log.message contains "refused"')).toEqual([
      'timeout',
      'refused',
    ]);
    expect(searchWords('where service.name = "api" | group by .group_id')).toEqual([]);
  });

  it('are marked in any case, with what is around them kept', () => {
    expect(markWords('Card DECLINED twice; card declined', ['card declined'])).toEqual([
      { text: 'Card DECLINED', marked: true },
      { text: ' twice; ', marked: false },
      { text: 'card declined', marked: true },
    ]);
    expect(markWords('a (b) c', ['(b)'])).toEqual([
      { text: 'a ', marked: false },
      { text: '(b)', marked: true },
      { text: ' c', marked: false },
    ]);
    expect(markWords('nothing here', [])).toEqual([{ text: 'nothing here', marked: false }]);
  });
});
