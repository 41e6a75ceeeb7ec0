import { describe, expect, it } from 'vitest';
import { cursorAtEnd, cursorLess, formatCursor, parseCursor, rowCursor } from './tailSql';

describe('live tail cursor', () => {
  it('is written and read back as <µs>-<trace id>-<row id>', () => {
    const c = rowCursor({
      arrived_us: '1796556744234123',
      trace_uuid: '0af76519-16cd-43dd-8448-eb211c80319c',
      id: '12345678901234567890',
      total: '1',
    });
    const text = formatCursor(c);
    expect(text).toBe('1796556744234123-0af7651916cd43dd8448eb211c80319c-12345678901234567890');
    expect(parseCursor(text)).toEqual(c);
  });

  it('refuses what this server did not write', () => {
    for (const bad of ['', 'x', '1-2-3', `1-${'a'.repeat(32)}-18446744073709551616`, `1-${'A'.repeat(32)}-1`])
      expect(parseCursor(bad)).toBeNull();
  });

  it('orders by arrival, then trace id, then row id; the end of a moment is after its every row', () => {
    const at = (us: bigint, trace: string, id: string) => ({ us, traceHex: trace.repeat(32), id });
    expect(cursorLess(at(1n, 'f', '9'), at(2n, '0', '0'))).toBe(true);
    expect(cursorLess(at(2n, '0', '9'), at(2n, '1', '0'))).toBe(true);
    expect(cursorLess(at(2n, '1', '9'), at(2n, '1', '10'))).toBe(true);
    expect(cursorLess(at(2n, '1', '10'), at(2n, '1', '9'))).toBe(false);
    expect(cursorLess(at(5n, 'f', '18446744073709551614'), cursorAtEnd(5n))).toBe(true);
    expect(cursorLess(cursorAtEnd(5n), at(6n, '0', '0'))).toBe(true);
  });
});
