import type { OtlpAnyValue, OtlpEvent, OtlpKeyValue, OtlpSpan, OtlpTracesRequest } from '../otlp';

/**
 * Hand-made decoded requests for the normalisation tests: plain values in, OTLP shapes out, so a
 * test states only what it is about. Not used by production code.
 */

export type PlainValue = string | number | boolean | OtlpAnyValue;

export const TRACE_ID = '0123456789abcdef0123456789abcdef';
export const SPAN_ID = '00000000000000aa';
export const PARENT_ID = '00000000000000bb';

/** Integers become intValue, other numbers doubleValue; objects are taken as AnyValues. */
export function anyValue(v: PlainValue): OtlpAnyValue {
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { intValue: v } : { doubleValue: v };
  return v;
}

export function keyValues(attrs: Record<string, PlainValue> = {}): OtlpKeyValue[] {
  return Object.entries(attrs).map(([key, v]) => ({ key, value: anyValue(v) }));
}

export interface SpanSpec extends Partial<Omit<OtlpSpan, 'attributes' | 'events'>> {
  attrs?: Record<string, PlainValue>;
  events?: { name: string; time?: bigint; attrs?: Record<string, PlainValue> }[];
}

export const START_NS = 1_700_000_000_000_000_000n;

export function otlpSpan(spec: SpanSpec = {}): OtlpSpan {
  const { attrs, events, ...rest } = spec;
  return {
    traceId: TRACE_ID,
    spanId: SPAN_ID,
    parentSpanId: PARENT_ID,
    traceState: '',
    name: 'work',
    kind: 1,
    startTimeUnixNano: START_NS,
    endTimeUnixNano: START_NS + 1_500_000n,
    links: [],
    status: { code: 0, message: '' },
    ...rest,
    attributes: keyValues(attrs),
    events: (events ?? []).map((e): OtlpEvent => ({
      name: e.name,
      timeUnixNano: e.time ?? START_NS + 1000n,
      attributes: keyValues(e.attrs),
    })),
  };
}

export interface RequestSpec {
  resource?: Record<string, PlainValue>;
  scope?: { name?: string; version?: string; attrs?: Record<string, PlainValue> };
}

export function otlpRequest(spans: OtlpSpan[], spec: RequestSpec = {}): OtlpTracesRequest {
  return {
    resourceSpans: [
      {
        resource: { attributes: keyValues(spec.resource ?? { 'service.name': 'api' }) },
        scopeSpans: [
          {
            scope: {
              name: spec.scope?.name ?? '',
              version: spec.scope?.version ?? '',
              attributes: keyValues(spec.scope?.attrs),
            },
            spans,
          },
        ],
      },
    ],
  };
}
