import { describe, expect, it } from 'vitest';
import { PromQLError, parsePromQL, selectorsOf } from './index';
import { parseDurationMs, parseNumber, unquoteString } from './literals';

function errorOf(q: string): string {
  try {
    parsePromQL(q);
  } catch (e) {
    expect(e).toBeInstanceOf(PromQLError);
    expect((e as PromQLError).errorType).toBe('bad_data');
    return (e as Error).message;
  }
  throw new Error(`no error for ${q}`);
}

describe('literals', () => {
  it.each([
    ['5m', 300_000],
    ['1h30m', 5_400_000],
    ['1d', 86_400_000],
    ['1w', 604_800_000],
    ['1y', 31_536_000_000],
    ['500ms', 500],
    ['1m30s500ms', 90_500],
  ])('duration %s', (text, ms) => expect(parseDurationMs(text)).toBe(ms));

  it('rejects units out of order', () => expect(parseDurationMs('1m1h')).toBeUndefined());

  it.each([
    ['0x1F', 31],
    ['1.5e3', 1500],
    ['Inf', Infinity],
    ['1_000', 1000],
    ['.5', 0.5],
    ['5m', 300],
  ])('number %s', (text, value) => expect(parseNumber(text)).toBe(value));

  it('NaN', () => expect(parseNumber('NaN')).toBeNaN());

  it('strings', () => {
    expect(unquoteString('"a\\nb\\x41\\u00e9"')).toBe('a\nbAé');
    expect(unquoteString("'it\\'s'")).toBe("it's");
    expect(unquoteString('`raw\\n`')).toBe('raw\\n');
  });
});

describe('parsePromQL', () => {
  it('builds selectors with matchers, offset and @', () => {
    const e = parsePromQL('rate(http_requests_total{job="api", code=~"5.."}[5m] offset -1m @ 100)');
    expect(e.type).toBe('call');
    if (e.type !== 'call') return;
    const m = e.args[0];
    expect(m.type).toBe('matrixSelector');
    if (m.type !== 'matrixSelector') return;
    expect(m.rangeMs).toBe(300_000);
    expect(m.vector.offsetMs).toBe(-60_000);
    expect(m.vector.at).toEqual({ kind: 'time', ms: 100_000 });
    expect(m.vector.matchers).toEqual([
      { name: '__name__', type: '=', value: 'http_requests_total' },
      { name: 'job', type: '=', value: 'api' },
      { name: 'code', type: '=~', value: '5..' },
    ]);
  });

  it('parses subqueries with @ start() and default step', () => {
    const e = parsePromQL('max_over_time(rate(x[1m])[1h30m:] @ start())');
    if (e.type !== 'call' || e.args[0].type !== 'subquery') throw new Error('not a subquery');
    expect(e.args[0].rangeMs).toBe(5_400_000);
    expect(e.args[0].stepMs).toBe(0);
    expect(e.args[0].at).toEqual({ kind: 'start' });
  });

  it('parses numbers, strings, unary and binary modifiers', () => {
    expect(parsePromQL('0x10 + Inf')).toMatchObject({ type: 'binary', lhs: { value: 16 }, rhs: { value: Infinity } });
    expect(parsePromQL('"a"')).toMatchObject({ type: 'string', value: 'a' });
    expect(parsePromQL('a > bool on(x) group_left(y) b')).toMatchObject({
      type: 'binary',
      returnBool: true,
      matching: { card: 'many-to-one', on: true, labels: ['x'], include: ['y'] },
    });
    expect(parsePromQL('a and ignoring(x) b')).toMatchObject({
      matching: { card: 'many-to-many', on: false, labels: ['x'] },
    });
    expect(parsePromQL('sum without (a) (x)')).toMatchObject({
      type: 'aggregate',
      op: 'sum',
      without: true,
      grouping: ['a'],
    });
    expect(parsePromQL('topk by (a) (3, x)')).toMatchObject({ op: 'topk', param: { value: 3 }, grouping: ['a'] });
  });

  it('reports bad regexes at the string', () => {
    expect(errorOf('x{a=~"("}')).toMatch(/^1:6: parse error: error parsing regexp: /);
  });

  it('binds offset, @, ranges and subqueries to the operand before them, as Prometheus', () => {
    expect(parsePromQL('a offset 15m or b offset 45m')).toMatchObject({
      type: 'binary',
      lhs: { type: 'vectorSelector', offsetMs: 900_000 },
      rhs: { type: 'vectorSelector', offsetMs: 2_700_000 },
    });
    expect(parsePromQL('a * b @ 100')).toMatchObject({
      lhs: { at: undefined },
      rhs: { at: { kind: 'time', ms: 100_000 } },
    });
    expect(parsePromQL('-a offset 1m')).toMatchObject({
      type: 'unary',
      expr: { type: 'vectorSelector', offsetMs: 60_000 },
    });
    expect(parsePromQL('1 + max_over_time(a[5m:1m])')).toMatchObject({ rhs: { type: 'call' } });
    expect(parsePromQL('(a + b)[5m:1m]')).toMatchObject({ type: 'subquery', expr: { type: 'paren' } });
    expect(errorOf('a + b[5m]')).toBe(
      '1:5: parse error: binary expression must contain only scalar and instant vector types',
    );
  });

  it('accepts numbers with a trailing dot, outside strings', () => {
    expect(parsePromQL('1./6.')).toMatchObject({ lhs: { value: 1 }, rhs: { value: 6 } });
    expect(parsePromQL('x{a="1."} * 2.')).toMatchObject({
      lhs: { matchers: [{}, { value: '1.' }] },
      rhs: { value: 2 },
    });
    expect(errorOf('x1.')).toMatch(/^1:3: parse error: unexpected/);
  });

  it('lists the selectors', () => {
    expect(selectorsOf(parsePromQL('a / on(x) b{c="d"}'))).toEqual([
      [{ name: '__name__', type: '=', value: 'a' }],
      [
        { name: '__name__', type: '=', value: 'b' },
        { name: 'c', type: '=', value: 'd' },
      ],
    ]);
  });

  it.each([
    ['foo(bar)', '1:1: parse error: unknown function with name "foo"'],
    ['rate(x)', '1:6: parse error: expected type range vector in call to function "rate", got instant vector'],
    ['sum(x[5m])', '1:5: parse error: expected type instant vector in aggregation expression, got range vector'],
    ['topk("a", x)', '1:6: parse error: expected type scalar in aggregation parameter, got string'],
    ['count_values(1, x)', '1:14: parse error: expected type string in aggregation parameter, got scalar'],
    ['1 > 2', '1:3: parse error: comparisons between scalars must use BOOL modifier'],
    ['a + bool b', '1:3: parse error: bool modifier can only be used on comparison operators'],
    ['1 and x', '1:1: parse error: set operator "and" not allowed in binary scalar expression'],
    ['x and on(a) group_left b', '1:1: parse error: no grouping allowed for "and" operation'],
    ['x[5m] + 1', '1:1: parse error: binary expression must contain only scalar and instant vector types'],
    [
      '-(x[5m])',
      '1:1: parse error: unary expression only allowed on expressions of type scalar or instant vector, got "range vector"',
    ],
    ['x[5m][1h:]', '1:1: parse error: subquery is only allowed on instant vector, got matrix instead'],
    ['rate(x[5m], 1)', '1:1: parse error: expected 1 argument(s) in call to "rate", got 2'],
    ['label_join(x, "a")', '1:1: parse error: expected at least 3 argument(s) in call to "label_join", got 2'],
    ['round(x, 1, 2)', '1:1: parse error: expected at most 2 argument(s) in call to "round", got 3'],
    ['{a=""}', '1:1: parse error: vector selector must contain at least one non-empty matcher'],
    ['x{__name__="y"}', '1:1: parse error: metric name must not be set twice: "x" or "y"'],
    [
      '(x) offset 5m',
      '1:1: parse error: offset modifier must be preceded by an instant vector selector or range vector selector or a subquery',
    ],
    ['x offset 1m offset 2m', '1:1: parse error: offset may not be set multiple times'],
    ['x{', '1:3: parse error: unexpected end of input'],
    ['sum(x) by', '1:10: parse error: unexpected end of input'],
    ['x +\n  )', '2:3: parse error: unexpected ")"'],
    ['', '1:1: parse error: no expression found in input'],
    ['x[5m:1m][1h:]', '1:1: parse error: subquery is only allowed on instant vector, got matrix instead'],
  ])('%s -> %s', (q, msg) => expect(errorOf(q)).toBe(msg));
});
