import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderGolden } from './golden';
import { GOLDEN_CASES } from './goldenCases';

/**
 * Golden SQL: each metrics query of GOLDEN_CASES compiles to exactly the SQL and parameters in
 * compileSeries.golden.sql. A change of the compiler shows up as a diff of that file, reviewed
 * like code; regenerate with LANTERN_UPDATE_GOLDEN=1 only after reading the diff.
 */
const FILE = new URL('./compileSeries.golden.sql', import.meta.url);

const rendered = GOLDEN_CASES.map(renderGolden);
if (process.env.LANTERN_UPDATE_GOLDEN === '1') writeFileSync(FILE, rendered.join('\n\n') + '\n');
const golden = readFileSync(FILE, 'utf8').trimEnd().split('\n\n');

describe('metrics query -> SQL (golden)', () => {
  it('has one golden entry per case', () => {
    expect(golden.length).toBe(GOLDEN_CASES.length);
    expect(GOLDEN_CASES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(GOLDEN_CASES.map((c, i) => [c.name, i] as const))('%s', (_name, i) => {
    expect(rendered[i]).toBe(golden[i]);
  });

  it('never puts user text into the SQL text', () => {
    for (const text of rendered) {
      const sqlLines = text.split('\n').filter((l) => !l.startsWith('--') && !l.startsWith('##'));
      for (const l of sqlLines) expect(l).not.toMatch(/web-1|\/api\/%|\^\/health|app\.req|host\.name/);
    }
  });

  it('keeps <= and < apart', () => {
    const le = rendered[GOLDEN_CASES.findIndex((c) => c.name === 'counter where numeric <=')];
    expect(le).toContain(') <= {p6:Float64}');
  });
});
