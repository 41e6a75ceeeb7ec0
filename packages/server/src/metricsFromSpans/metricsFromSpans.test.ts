import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { parseAliased, parseSpanExpr } from './spanMetricExpr';

const dir = mkdtempSync(join(tmpdir(), 'lantern-msf-'));
const load = (yaml: string) => {
  const p = join(dir, `c${Math.random().toString(36).slice(2)}.yml`);
  writeFileSync(p, yaml);
  return loadConfig({ file: p, env: {} });
};
const problems = (yaml: string): string => {
  try {
    load(yaml);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems.join('\n');
    throw err;
  }
  throw new Error('accepted');
};

describe('metrics_from_spans', () => {
  it('defaults to the span duration histogram and the events counter', () => {
    const c = loadConfig({ env: {} });
    expect(c.metrics_from_spans.map((d) => [d.name, d.instrument, d.unit])).toEqual([
      ['lantern.tracing.spans', 'histogram', 'microseconds'],
      ['lantern.tracing.events', 'counter', ''],
    ]);
  });

  it('accepts a definition of its own, normalising the unit', () => {
    const c = load(
      "metrics_from_spans:\n  - name: shop.checkout\n    instrument: histogram\n    unit: ms\n    value: .duration / 1e6\n    attrs: [service.name as svc, .status_code]\n    where: .name = 'POST /checkout' and not .is_event\n",
    );
    expect(c.metrics_from_spans).toEqual([
      expect.objectContaining({
        name: 'shop.checkout',
        unit: 'milliseconds',
        attrs: ['service.name as svc', '.status_code'],
        annotations: [],
        description: '',
      }),
    ]);
  });

  it('refuses a malformed entry at start-up, naming the key and what is wrong', () => {
    const text = problems(
      [
        'metrics_from_spans:',
        '  - name: ok.metric',
        '    instrument: counter',
        '    value: .count',
        '  - name: bad metric',
        '    instrument: gauge',
        '    value: .status_code',
        '    attrs: [.nope, "service.name + 1"]',
        '    where: .duration > (1000',
        '    colour: red',
      ].join('\n'),
    );
    expect(text).toMatch(/metrics_from_spans\.1\.name: must be a metric name/);
    expect(text).toMatch(/metrics_from_spans\.1\.instrument: must be histogram or counter/);
    expect(text).toMatch(/metrics_from_spans\.1\.value: the value must be a number; \.status_code is text/);
    expect(text).toMatch(/metrics_from_spans\.1\.attrs\.0: unknown span column \.nope/);
    expect(text).toMatch(/metrics_from_spans\.1\.attrs\.1: an expression needs a name/);
    expect(text).toMatch(/metrics_from_spans\.1\.where: missing \)/);
    expect(text).toMatch(/metrics_from_spans\.1: .*colour/);
    expect(text).not.toMatch(/metrics_from_spans\.0/);
  });

  it('refuses two metrics of one name and a missing value', () => {
    expect(
      problems(
        'metrics_from_spans:\n  - {name: a.b, instrument: counter, value: "1"}\n  - {name: A_b, instrument: counter, value: "1"}\n',
      ),
    ).toMatch(/metrics_from_spans\.1\.name: A_b clashes with a\.b/);
    expect(problems('metrics_from_spans:\n  - {name: a.b, instrument: counter}\n')).toMatch(
      /metrics_from_spans\.0\.value: is required/,
    );
  });
});

describe('span metric expressions', () => {
  it('parses precedence, strings with escapes, and aliases', () => {
    expect(parseSpanExpr("a.b = 'it\\'s' or .duration / 1000 > 5 and not .is_event")).toMatchObject({
      kind: 'binary',
      op: 'or',
      left: { kind: 'binary', op: '=', left: { kind: 'attr', key: 'a.b' }, right: { kind: 'string', value: "it's" } },
      right: { kind: 'binary', op: 'and', left: { op: '>', left: { op: '/' } }, right: { kind: 'unary', op: 'not' } },
    });
    expect(parseAliased('.status_code')).toMatchObject({ alias: '.status_code' });
    expect(parseAliased('http.route AS route')).toMatchObject({
      alias: 'route',
      expr: { kind: 'attr', key: 'http.route' },
    });
    expect(parseAliased('span.system')).toMatchObject({ alias: '.system', expr: { kind: 'column', name: 'system' } });
  });

  it('refuses what is not an expression', () => {
    expect(() => parseSpanExpr('')).toThrow(/empty/);
    expect(() => parseSpanExpr("'open")).toThrow(/unterminated/);
    expect(() => parseSpanExpr('1 2')).toThrow(/after a complete expression/);
    expect(() => parseSpanExpr('a; DROP TABLE x')).toThrow(/unexpected ";"/);
    expect(() => parseSpanExpr('sleep(1)')).toThrow(/after a complete expression/);
  });
});
