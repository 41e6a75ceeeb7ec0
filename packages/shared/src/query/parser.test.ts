import { describe, expect, it } from 'vitest';
import { lex, parseDuration } from './lexer';
import { parsePart, parseQuery, splitParts } from './parser';

describe('lexer', () => {
  it('reads idents, strings with escapes, numbers, durations and bytes', () => {
    const { tokens } = lex(`span.duration >= 1.5s and "a\\"b" = 'x\\\\y' 200 -1e3 2xx {`);
    expect(tokens.map((t) => [t.type, t.value])).toEqual([
      ['ident', 'span.duration'],
      ['byte', '>'],
      ['byte', '='],
      ['duration', '1.5s'],
      ['ident', 'and'],
      ['string', 'a"b'],
      ['byte', '='],
      ['string', 'x\\y'],
      ['number', '200'],
      ['number', '-1e3'],
      ['string', '2xx'],
      ['byte', '{'],
      ['eof', ''],
    ]);
  });
  it('keeps unknown escapes instead of dropping them', () => {
    expect(lex(`"a\\qb"`).tokens[0].value).toBe('a\\qb');
  });
  it('reports an unterminated string with its range', () => {
    expect(lex(`x = "abc`).error).toEqual({ message: 'unterminated quoted string', start: 4, end: 8 });
  });
  it.each([
    ['10ms', 10e6],
    ['1.5s', 1.5e9],
    ['1h30m', 5400e9],
    ['300us', 300e3],
    ['-2s', -2e9],
    ['10kb', null],
    ['5', null],
  ])('parseDuration(%s) = %s', (text, ns) => expect(parseDuration(text)).toBe(ns));
});

describe('splitParts', () => {
  it('splits on " | " only, trims, drops empty parts, keeps offsets', () => {
    expect(splitParts(' group by a |  | where b = "x|y" | a|b')).toEqual([
      { text: 'group by a', start: 1, end: 11 },
      { text: 'where b = "x|y"', start: 17, end: 32 },
      { text: 'a|b', start: 35, end: 38 },
    ]);
  });
});

describe('parsePart', () => {
  it('parses group by with span. normalised', () => {
    expect(parsePart('group by span.group_id, service.name').ast).toMatchObject({
      kind: 'group',
      names: [{ attr: '.group_id', text: '.group_id' }, { attr: 'service.name' }],
    });
  });
  it('parses columns with aliases and the {..}(x) fan-out', () => {
    const ast = parsePart(
      'count() as n, {p50,p90,p99}(span.duration), .error_rate, per_min(count()), p95(.duration) as slow',
    ).ast;
    expect(ast?.kind).toBe('select');
    if (ast?.kind !== 'select') return;
    expect(ast.columns.map((c) => [c.name.text, c.alias])).toEqual([
      ['count()', 'n'],
      ['p50(.duration)', undefined],
      ['p90(.duration)', undefined],
      ['p99(.duration)', undefined],
      ['.error_rate', undefined],
      ['per_min(count())', undefined],
      ['p95(.duration)', 'slow'],
    ]);
  });
  it('parses where filters with every operator', () => {
    const ast = parsePart(
      `where .duration > 10ms and a = "x" or b != 2 and c < 1 and d <= 1 and e >= 1 and f like "%x%" and g not like "y%" and h contains "a|b" and i not contains z and j exists and k not exists and l does not exist and m in ("a", 2, b) and n not in (1) and o == 1 and p <> 2 and q !~ "w"`,
    ).ast;
    expect(ast?.kind).toBe('where');
    if (ast?.kind !== 'where') return;
    expect(
      ast.filters.map((f) => [f.connector, f.lhs.attr, f.op, f.values.map((v) => `${v.kind}:${v.value}`).join(',')]),
    ).toEqual([
      [null, '.duration', '>', 'duration:10ms'],
      ['and', 'a', '=', 'string:x'],
      ['or', 'b', '!=', 'number:2'],
      ['and', 'c', '<', 'number:1'],
      ['and', 'd', '<=', 'number:1'],
      ['and', 'e', '>=', 'number:1'],
      ['and', 'f', 'like', 'string:%x%'],
      ['and', 'g', 'not like', 'string:y%'],
      ['and', 'h', 'contains', 'string:a|b'],
      ['and', 'i', 'not contains', 'string:z'],
      ['and', 'j', 'exists', ''],
      ['and', 'k', 'not exists', ''],
      ['and', 'l', 'not exists', ''],
      ['and', 'm', 'in', 'string:a,number:2,string:b'],
      ['and', 'n', 'not in', 'number:1'],
      ['and', 'o', '=', 'number:1'],
      ['and', 'p', '!=', 'number:2'],
      ['and', 'q', 'not contains', 'string:w'],
    ]);
    expect(ast.filters[0].values[0].num).toBe(10_000_000);
  });
  it('treats "x = v" without where as a filter and a bare ident as a column', () => {
    expect(parsePart('service.name = api').ast?.kind).toBe('where');
    expect(parsePart('service.name').ast?.kind).toBe('select');
  });
  it('parses aggregate filters and the multi-attribute form', () => {
    const ast = parsePart('where {a, b} contains "x"').ast;
    expect(ast).toMatchObject({
      kind: 'where',
      filters: [
        { lhs: { attr: 'a' }, connector: null },
        { lhs: { attr: 'b' }, connector: 'or' },
      ],
    });
    expect(parsePart('where p95(.duration) > 1s').ast).toMatchObject({
      kind: 'where',
      filters: [{ lhs: { func: 'p95', attr: '.duration' } }],
    });
  });
  it('accepts quoted keys with dashes and keywords in any case', () => {
    expect(parsePart(`WHERE "k8s.pod-name" = 'a' AND x IN (1)`).ast).toMatchObject({
      kind: 'where',
      filters: [{ lhs: { attr: 'k8s.pod-name' } }, { op: 'in' }],
    });
  });

  it.each([
    ['group by', 'expected an attribute or function at the end', 8, 8],
    ['where .duration >', 'expected a value at the end', 17, 17],
    ['where a = 1 b = 2', 'unexpected "b"', 12, 13],
    ['foo(.duration)', 'unknown function "foo"', 0, 3],
    ['where .durationx > 1', 'unknown span field ".durationx"', 6, 16],
    ['count() as', 'alias is required (AS alias)', 10, 10],
    ['p50()', 'p50() needs an argument', 0, 5],
    ['p50(count())', 'p50() takes an attribute, not a function', 4, 11],
    ['where a = "x', 'unterminated quoted string', 10, 12],
    ['where a in (1, 2', 'expected ")" at the end', 16, 16],
  ])('diagnoses %j', (text, message, start, end) => {
    const p = parsePart(text);
    expect(p.ast).toBeUndefined();
    expect(p.error?.message).toContain(message);
    expect([p.error?.start, p.error?.end]).toEqual([start, end]);
  });

  it('reports diagnostics in full-query offsets per part', () => {
    const parts = parseQuery('group by service.name | where x ==! 1 | count()');
    expect(parts.map((p) => !!p.error)).toEqual([false, true, false]);
    expect(parts[1].error).toMatchObject({ start: 34, end: 35 });
  });
});
