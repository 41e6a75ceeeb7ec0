import { describe, expect, it } from 'vitest';
import { bigDemoTrace, demoTraces } from './demoTraces';

type Span = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  status?: { code: number };
};
const allSpans = (body: { resourceSpans: unknown[] }) =>
  body.resourceSpans.flatMap((rs) => (rs as { scopeSpans: { spans: Span[] }[] }).scopeSpans.flatMap((ss) => ss.spans));

describe('demoTraces', () => {
  const now = Date.UTC(2024, 0, 1, 12);
  const body = demoTraces({ now, traces: 50 });
  const spans = allSpans(body);

  it('is deterministic for a seed', () => {
    expect(demoTraces({ now, traces: 50 })).toEqual(body);
    expect(demoTraces({ now, traces: 50, seed: 2 })).not.toEqual(body);
  });

  it('makes 50 traces whose spans all have a parent in the trace, in the past', () => {
    const roots = spans.filter((s) => !s.parentSpanId);
    expect(roots).toHaveLength(50);
    const ids = new Set(spans.map((s) => s.spanId));
    for (const s of spans) {
      if (s.parentSpanId) expect(ids.has(s.parentSpanId)).toBe(true);
      expect(BigInt(s.endTimeUnixNano) < BigInt(now) * 1_000_000n).toBe(true);
      expect(BigInt(s.endTimeUnixNano) >= BigInt(s.startTimeUnixNano)).toBe(true);
    }
    expect(spans.length).toBeGreaterThan(200);
    expect(spans.some((s) => s.status?.code === 2)).toBe(true);
  });

  it('builds one big trace of the asked size', () => {
    const big = bigDemoTrace(now, 1000);
    const bs = allSpans(big.body);
    expect(bs).toHaveLength(1000);
    expect(new Set(bs.map((s) => s.traceId))).toEqual(new Set([big.traceId]));
  });
});
