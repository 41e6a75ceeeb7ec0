import { describe, expect, it } from 'vitest';
import { parseMetricsQuery } from './parser';
import { printExpr } from './print';
import { parseMetricAlias } from './metricAlias';

const parts = (q: string) => parseMetricsQuery(q).parts;

describe('parseMetricsQuery', () => {
  it('splits parts and keeps ranges in the whole query', () => {
    const p = parts('p99($srv) | per_min(count($srv)) as rpm | group by host.name');
    expect(p.map((x) => x.kind)).toEqual(['selector', 'selector', 'grouping']);
    expect(p[1]).toMatchObject({ alias: 'rpm', range: { start: 12, end: 39 } });
    expect(p[2]).toMatchObject({ grouping: { all: false, names: [{ alias: '', attr: 'host.name' }] } });
  });

  it('gives a bare $name the implicit column name', () => {
    expect(parts('$cpu')[0]).toMatchObject({ kind: 'selector', alias: 'cpu' });
    expect(parts('$cpu{mode=idle}')[0]).toMatchObject({ kind: 'selector', alias: '' });
  });

  it('reads aliases that start with a digit or an underscore as metrics', () => {
    const q = parseMetricsQuery('per_min($5xx{code=503}) as rate | $_tmp | where $5xx.host = a | group by $_tmp.host');
    expect(q.diagnostics).toEqual([]);
    expect(q.parts[0]).toMatchObject({ expr: { kind: 'call', args: [{ kind: 'series', alias: '5xx' }] } });
    expect(q.parts[1]).toMatchObject({ kind: 'selector', alias: '_tmp', expr: { kind: 'series', alias: '_tmp' } });
    expect(q.parts[2]).toMatchObject({ filters: [{ alias: '5xx', attr: 'host' }] });
    expect(q.parts[3]).toMatchObject({ grouping: { names: [{ alias: '_tmp', attr: 'host' }] } });
    expect(parts('avg($Srv)')[0]).toMatchObject({ kind: 'error', message: 'invalid metric alias: "$Srv"' });
  });

  it('respects precedence and parentheses', () => {
    const p = parts('_hits / (_hits + _misses) * 100 > 50 and $a')[0];
    if (p.kind !== 'selector') throw new Error(p.kind);
    expect(printExpr(p.expr)).toBe('_hits / (_hits + _misses) * 100 > 50 and $a');
    expect(p.expr).toMatchObject({ kind: 'binary', op: 'and', left: { op: '>' } });
  });

  it('keeps <= distinct from <', () => {
    const p = parts('$a <= 5')[0];
    expect(p).toMatchObject({ expr: { kind: 'binary', op: '<=' } });
  });

  it('parses durations and bytes into base units', () => {
    const p = parts('p99($d) > 100ms')[0];
    expect(p).toMatchObject({ expr: { right: { kind: 'number', value: 100e6, unit: 'duration' } } });
    expect(parts('$m > 1MiB')[0]).toMatchObject({ expr: { right: { value: 1024 * 1024, unit: 'bytes' } } });
  });

  it('parses brace filters and where lists with every operator', () => {
    const p = parts('where host.name = "a b" and code in (200, 404) or x !~ "^t" and y not exists and z <= 3');
    expect(p[0]).toMatchObject({ kind: 'where', conjunctions: ['and', 'or', 'and', 'and'] });
    if (p[0].kind !== 'where') throw new Error();
    expect(p[0].filters.map((f) => f.op)).toEqual(['=', 'in', '!~', 'not exists', '<=']);
    expect(p[0].filters[1].values).toEqual(['200', '404']);
  });

  it('reads a value written with a leading minus, and refuses a minus alone', () => {
    expect(parts('where code = -1')[0]).toMatchObject({ filters: [{ op: '=', values: ['-1'] }] });
    expect(parts('where code in (-1, -2.5)')[0]).toMatchObject({ filters: [{ op: 'in', values: ['-1', '-2.5'] }] });
    expect(parts('where code = - 1')[0]).toMatchObject({ kind: 'error', message: 'expected a value, got "-"' });
  });

  it('scopes where and group by to a metric with $alias.key', () => {
    expect(parts('where $a.host = x')[0]).toMatchObject({ filters: [{ alias: 'a', attr: 'host' }] });
    expect(parts('group by $a.host')[0]).toMatchObject({ grouping: { names: [{ alias: 'a', attr: 'host' }] } });
  });

  it('reads a filter list without where as a where part', () => {
    expect(parts('host.name = a')[0]).toMatchObject({ kind: 'where', text: 'where host.name = a' });
  });

  it('parses uniq over attributes', () => {
    expect(parts('uniq($cpu.cpu)')[0]).toMatchObject({ expr: { kind: 'call', func: 'uniq', attrs: ['cpu'] } });
    expect(parts('uniq($cpu, host.name, cpu) as n')[0]).toMatchObject({
      alias: 'n',
      expr: { attrs: ['host.name', 'cpu'] },
    });
  });

  it('reports errors per part with a range; other parts still parse', () => {
    const q = parseMetricsQuery('avg($srv) | group by');
    expect(q.parts[0].kind).toBe('selector');
    expect(q.parts[1]).toMatchObject({ kind: 'error', message: 'expected an attribute name, got end of input' });
    expect(q.diagnostics).toEqual([
      { message: 'expected an attribute name, got end of input', range: { start: 20, end: 20 } },
    ]);
  });

  it('refuses operators other than = != ~ !~ in inside braces', () => {
    expect(parts('$a{x > 1}')[0]).toMatchObject({
      kind: 'error',
      message: 'only =, !=, ~, !~, in and not in are allowed inside curly brackets',
    });
  });

  it('refuses a metric inside inline grouping', () => {
    expect(parts('$a group by $a.host')[0]).toMatchObject({
      kind: 'error',
      message: "inline grouping can't contain a metric: $a",
    });
  });

  it('reads unquoted values written without spaces as one value', () => {
    expect(parts('host.name = web-2')[0]).toMatchObject({
      kind: 'where',
      filters: [{ attr: 'host.name', op: '=', values: ['web-2'] }],
    });
    expect(parts('$a{pod=api-7f9c}')[0]).toMatchObject({ expr: { filters: [{ values: ['api-7f9c'] }] } });
  });

  it('keeps | inside quotes', () => {
    expect(parts('where path = "a|b"')[0]).toMatchObject({ filters: [{ values: ['a|b'] }] });
  });
});

describe('parseMetricAlias', () => {
  it('parses and validates', () => {
    expect(parseMetricAlias('http.server.duration as $srv')).toEqual({ name: 'http.server.duration', alias: 'srv' });
    expect(() => parseMetricAlias('x as srv')).toThrow('alias "srv" must start with a dollar sign');
    expect(() => parseMetricAlias('x as $Srv')).toThrow('invalid alias: "$Srv"');
    expect(parseMetricAlias('http.5xx as $5xx')).toEqual({ name: 'http.5xx', alias: '5xx' });
    expect(parseMetricAlias('x as $_x')).toEqual({ name: 'x', alias: '_x' });
    expect(() => parseMetricAlias('x')).toThrow('can\'t parse metric alias "x"');
  });
});
