import { describe, expect, it } from 'vitest';
import { parseMetricsQuery } from './parser';
import { ALL_VALUE, parseVariableParams, substituteVariables, variableParams } from './variables';

const vars = (o: Record<string, string[] | 'all'>) => new Map(Object.entries(o));

describe('dashboard variables in metrics queries', () => {
  it('puts one value, several values or All in a where filter', () => {
    const q = '$req | where service.name = $service | group by host.name';
    expect(substituteVariables(q, vars({ service: ['checkout'] }))).toBe(
      '$req | where service.name=checkout | group by host.name',
    );
    expect(substituteVariables(q, vars({ service: ['a b', 'c'] }))).toBe(
      '$req | where service.name in ("a b", c) | group by host.name',
    );
    expect(substituteVariables(q, vars({ service: 'all' }))).toBe('$req | group by host.name');
    expect(substituteVariables(q, vars({ service: [] }))).toBe('$req | group by host.name');
    expect(
      substituteVariables('$req | where x in ($service) and y != "$env"', vars({ service: ['a'], env: ['p', 'q'] })),
    ).toBe('$req | where x=a and y not in (p, q)');
  });

  it('drops an All term from its and-group, and the whole where when a group is left empty', () => {
    expect(substituteVariables('$r | where a = 1 and s = $s or b = 2', vars({ s: 'all' }))).toBe(
      '$r | where a = 1 or b = 2',
    );
    expect(substituteVariables('$r | where s = $s or b = 2', vars({ s: 'all' }))).toBe('$r');
  });

  it('puts attribute names in a grouping; All drops the name', () => {
    expect(substituteVariables('$r | group by $g', vars({ g: ['service.name', 'host.name'] }))).toBe(
      '$r | group by service.name, host.name',
    );
    expect(substituteVariables('$r | group by env, $g', vars({ g: 'all' }))).toBe('$r | group by env');
    expect(substituteVariables('$r | group by $g', vars({ g: 'all' }))).toBe('$r');
    expect(substituteVariables('sum($r) as n group by $g', vars({ g: 'all' }))).toBe('sum($r) as n');
    // Not an attribute name: never spliced into the query text.
    expect(substituteVariables('$r | group by $g', vars({ g: ['x | where'] }))).toBe('$r');
  });

  it('leaves metric aliases, unknown names and quoted text alone; the result parses', () => {
    const q = 'per_min($service) as n | where $service.host = $host | where s = "a|$service"';
    const out = substituteVariables(q, vars({ service: ['x'] }));
    expect(out).toBe(q);
    const regex = substituteVariables('$r | where s ~ $s', vars({ s: ['a.b', 'c'] }));
    expect(regex).toBe('$r | where s~"^(?:a\\\\.b|c)$"');
    expect(parseMetricsQuery(regex).diagnostics).toEqual([]);
  });

  it('reads and writes the var parameters', () => {
    const v = parseVariableParams(['service=a', 'service=b=c', `group=${ALL_VALUE}`, 'bad name=x', 'env']);
    expect([...v]).toEqual([
      ['service', ['a', 'b=c']],
      ['group', 'all'],
      ['env', 'all'],
    ]);
    expect(variableParams(v)).toEqual(['service=a', 'service=b=c', `group=${ALL_VALUE}`, `env=${ALL_VALUE}`]);
  });
});
