import { describe, expect, it } from 'vitest';
import { parsePath, serverProblems, syntaxProblems } from './yamlProblems';

const TEXT = [
  'schema: v1',
  'name: Shop',
  'grid:',
  '  - name: CPU',
  '    type: chart',
  '    colour: red',
  '    metrics:',
  '      - system.cpu as $cpu',
].join('\n');

describe('dashboard YAML problems', () => {
  it('parses the server paths', () => {
    expect(parsePath('grid[0].metrics[1]')).toEqual(['grid', 0, 'metrics', 1]);
    expect(parsePath('table.metrics')).toEqual(['table', 'metrics']);
  });

  it('puts each server problem at the line of the key it names', () => {
    const problems = serverProblems(
      TEXT,
      'grid[0].colour: unknown key (expected one of: name, type); grid[0].metrics[0]: bad alias; no path here',
    );
    expect(problems.map((p) => p.line)).toEqual([6, 8, 1]);
    expect(TEXT.slice(problems[0].from, problems[0].to)).toBe('colour');
    expect(problems[2].message).toBe('no path here');
  });

  it("puts a panel query's error at the line of its part, and a server syntax error at the line it names", () => {
    const text = [
      'schema: v1',
      'name: Shop',
      'grid:',
      '  - name: Average',
      '    metrics:',
      '      - shop.requests as $req',
      '    query:',
      '      - group by host',
      '      - avg($req)',
    ].join('\n');
    const [query] = serverProblems(
      text,
      'grid[0].query[1]: panel "Average": avg($req): counter instrument does not support avg',
    );
    expect(query.line).toBe(9);
    expect(text.slice(query.from, query.to)).toBe('avg($req)');
    const [syntax] = serverProblems(text, 'invalid YAML: Nested mappings are not allowed at line 7, column 5:');
    expect(syntax.line).toBe(7);
  });

  it('finds syntax errors with their lines', () => {
    const bad = 'name: Shop\ngrid:\n  - name: [unclosed\n';
    const problems = syntaxProblems(bad);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0].line).toBeGreaterThanOrEqual(3);
    expect(syntaxProblems(TEXT)).toEqual([]);
  });
});
