import { describe, expect, it } from 'vitest';
import { compile, ident, join, param, sql, traceIdToUuid, uuidToTraceId } from './sql';

describe('sql', () => {
  it('binds every value as a typed placeholder', () => {
    const q = compile(
      sql`SELECT * FROM ${ident('spans_index')} WHERE project_id = ${param.uint32(1)} AND name = ${param.string("x'; DROP TABLE spans_index --")}`,
    );
    expect(q.text).toBe('SELECT * FROM spans_index WHERE project_id = {p0:UInt32} AND name = {p1:String}');
    expect(q.params).toEqual({ p0: 1, p1: "x'; DROP TABLE spans_index --" });
  });

  it('numbers placeholders across nested fragments and joins', () => {
    const conds = [sql`a = ${param.string('1')}`, sql`b IN ${param.strings(['x', 'y'])}`];
    const q = compile(sql`SELECT 1 WHERE ${join(conds, ' AND ')} LIMIT ${param.uint32(10)}`);
    expect(q.text).toBe('SELECT 1 WHERE a = {p0:String} AND b IN {p1:Array(String)} LIMIT {p2:UInt32}');
    expect(q.params).toEqual({ p0: '1', p1: ['x', 'y'], p2: 10 });
  });

  it('keeps 64-bit ids exact as decimal strings', () => {
    expect(compile(sql`${param.uint64(18446744073709551615n)}`).params.p0).toBe('18446744073709551615');
    expect(() => param.uint64(-1n)).toThrow();
    expect(() => param.uint64(1n << 64n)).toThrow();
  });

  it('refuses identifiers that are not plain names', () => {
    expect(() => ident('spans; DROP')).toThrow();
    expect(() => ident('a.b')).toThrow();
    expect(() => ident('')).toThrow();
  });

  it('refuses out-of-range and non-finite numbers', () => {
    expect(() => param.uint32(-1)).toThrow();
    expect(() => param.uint32(1.5)).toThrow();
    expect(() => param.float64(Number.NaN)).toThrow();
  });

  it('binds a DateTime bound as 10-digit seconds, held to the range a DateTime holds', () => {
    const seconds = (iso: string) => compile(sql`${param.secondsUp(new Date(iso))}`).params.p0;
    expect(seconds('2026-01-01T00:00:00.001Z')).toBe('1767225601');
    // The engine reads `0` or `5000` as a year and refuses it; padded it is seconds.
    expect(seconds('1970-01-01T00:00:00Z')).toBe('0000000000');
    expect(seconds('1970-01-01T01:00:00Z')).toBe('0000003600');
    expect(seconds('1969-12-31T00:00:00Z')).toBe('0000000000');
    expect(seconds('2200-01-01T00:00:00Z')).toBe('4294967295');
  });

  it('converts trace ids to UUID text and back', () => {
    expect(traceIdToUuid('0af7651916cd43dd8448eb211c80319c')).toBe('0af76519-16cd-43dd-8448-eb211c80319c');
    expect(uuidToTraceId('0af76519-16cd-43dd-8448-eb211c80319c')).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(() => traceIdToUuid("0af7651916cd43dd8448eb211c80319'")).toThrow();
  });
});
