import { describe, it, expect } from 'vitest';
import { messageWords } from './messageWords';
import { sqlKeywordDigest } from './sqlKeywords';

describe('messageWords (reference ingest §2.6 tokenizer)', () => {
  it.each([
    ['user 42 not found', ['user', 'not', 'found']],
    ['user 97 not found.', ['user', 'not', 'found']],
    ['failed to connect: timeout after 30s', ['failed', 'to', 'connect', 'timeout', 'after']],
    ['GET /api/users/1 took 12ms', ['GET', 'took']],
    ['key="quoted value" done', ['done']],
    ['"quoted token" is ignored', ['is', 'ignored']],
    ["can't parse {a: 1} here", ['parse', 'here']],
    ["id='abc def' gone", ['gone']],
    ['item<T> list', ['list']],
    ['well-known, semi;colon', ['well-known', 'semi', 'colon']],
    ['version v1.2.3 deployed', ['version', 'deployed']],
    ['a.b host:port', []],
    ['- -- x', ['x']],
    ['', []],
  ])('%j', (input, want) => {
    expect(messageWords(input)).toEqual(want);
  });

  it('messages that differ only in variables have the same words', () => {
    expect(messageWords('order 123 failed for user alice@x.io')).toEqual(
      messageWords('order 9 failed for user bob@y.com'),
    );
  });
});

describe('sqlKeywordDigest (reference ingest §2.7)', () => {
  it.each([
    ['SELECT * FROM users WHERE id = 1', 'SELECT FROM WHERE'],
    ['select * from users where id = ?', 'SELECT FROM WHERE'],
    ["SELECT 'FROM' FROM t", 'SELECT FROM'],
    ["SELECT 'it''s where' FROM t", 'SELECT FROM'],
    ['SELECT "order", `group` FROM t ORDER BY 1 LIMIT 10', 'SELECT FROM ORDER LIMIT'],
    ['INSERT INTO users (a) VALUES ($1)', 'INSERT'],
    ['DELETE FROM users WHERE id = 1', 'DELETE FROM WHERE'],
    ['WITH x AS (SELECT 1) SELECT * FROM x UNION SELECT 2', 'WITH SELECT SELECT FROM UNION SELECT'],
    ['selection fromage', ''],
    ['SELECT 1from', 'SELECT'],
    ['', ''],
  ])('%j → %j', (sql, want) => {
    expect(sqlKeywordDigest(sql)).toBe(want);
  });
});
