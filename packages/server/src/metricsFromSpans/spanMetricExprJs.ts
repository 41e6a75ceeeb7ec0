import { stringifyAttr } from '../storage/telemetry/spanAttrEncoding';
import type { SpanRow } from '../storage/telemetry/spanRow';
import { ATTR_COLUMNS } from '../storage/telemetry/spanRowEncoding';
import type { SpanExpr } from './spanMetricExpr';

/**
 * `metrics_from_spans` expressions (spanMetricExpr.ts) compiled into JS functions over a
 * span row that give what the stored row's columns would give: promoted attributes from their
 * text value only, `display.name` as the group's name, `.group_id` as its exact decimal; text
 * against text compares text, a number on either side compares numbers, text that is no number
 * reads as 0 (the same values as the SQL the materialized views used to run,
 * docs/decisions/metrics-from-spans.md).
 */
export interface Compiled {
  type: 'number' | 'string';
  num: (r: SpanRow) => number;
  txt: (r: SpanRow) => string;
}

/** ClickHouse's toFloat64OrZero(toString(x)): a whole number text or 0. */
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
export function textToNumber(s: string): number {
  if (NUMBER_TEXT.test(s)) return Number(s);
  const l = s.toLowerCase();
  if (l === 'inf' || l === '+inf' || l === 'infinity') return Infinity;
  if (l === '-inf' || l === '-infinity') return -Infinity;
  if (l === 'nan') return NaN;
  return 0;
}

/** ClickHouse's toString of a Float64. */
export function numberToText(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return String(x).replace('e+', 'e');
}

const num = (type: 'number', f: (r: SpanRow) => number): Compiled => ({
  type,
  num: f,
  txt: (r) => numberToText(f(r)),
});
const txt = (f: (r: SpanRow) => string): Compiled => ({ type: 'string', txt: f, num: (r) => textToNumber(f(r)) });
const bool = (b: boolean): number => (b ? 1 : 0);

/** A 64-bit id's decimal text, memoised: BigInt to text costs more than the rest of a row's fold. */
const GROUP_TEXT_MAX = 50_000;
const groupTexts = new Map<bigint, string>();
function groupIdText(id: bigint): string {
  let t = groupTexts.get(id);
  if (t === undefined) {
    t = id.toString();
    if (groupTexts.size >= GROUP_TEXT_MAX) groupTexts.clear();
    groupTexts.set(id, t);
  }
  return t;
}

const PROMOTED = new Set<string>(ATTR_COLUMNS.map(([attr]) => attr));
/** `display_name` in spans_index: the group's name (spanRowEncoding). */
const displayName = (r: SpanRow): string => r.groupName ?? r.displayName;
const duration = (r: SpanRow): number => Math.max(0, Math.round(r.durationNs));

const COLUMNS: Record<string, Compiled> = {
  trace_id: txt((r) => r.traceId),
  system: txt((r) => r.system),
  group_id: { type: 'number', num: (r) => Number(r.groupId), txt: (r) => groupIdText(r.groupId) },
  type: txt((r) => r.type),
  kind: txt((r) => r.kind),
  name: txt((r) => r.name),
  event_name: txt((r) => r.eventName),
  display_name: txt(displayName),
  duration: num('number', duration),
  count: num('number', () => 1),
  status_code: txt((r) => r.statusCode),
  status_message: txt((r) => r.statusMessage),
  standalone: num('number', (r) => bool(r.standalone)),
  is_event: num('number', (r) => bool(r.eventName !== '')),
  link_count: num('number', (r) => Math.min(255, r.linkCount)),
  event_count: num('number', (r) => Math.min(255, r.eventCount)),
  event_error_count: num('number', (r) => Math.min(255, r.eventErrorCount)),
  event_log_count: num('number', (r) => Math.min(255, r.eventLogCount)),
};

/** An attribute as the stored row reads it: its column for promoted ones, else the attribute map. */
function attr(key: string): (r: SpanRow) => string {
  if (key === 'display.name') return displayName;
  if (PROMOTED.has(key)) {
    return (r) => {
      const v = r.attrs[key];
      return typeof v === 'string' ? v : '';
    };
  }
  // Keys starting with _ are not stored (spanRowEncoding).
  if (key.startsWith('_')) return () => '';
  return (r) => {
    const v = r.attrs[key];
    return v === undefined ? '' : stringifyAttr(v);
  };
}

export function compileSpanExprJs(e: SpanExpr): Compiled {
  switch (e.kind) {
    case 'number': {
      const v = e.value;
      return num('number', () => v);
    }
    case 'string': {
      const v = e.value;
      return txt(() => v);
    }
    case 'column':
      return COLUMNS[e.name];
    case 'attr':
      return txt(attr(e.key));
    case 'unary': {
      const a = compileSpanExprJs(e.arg).num;
      return e.op === '-' ? num('number', (r) => -a(r)) : num('number', (r) => bool(a(r) === 0));
    }
    case 'binary': {
      const l = compileSpanExprJs(e.left);
      const r = compileSpanExprJs(e.right);
      const [a, b] = [l.num, r.num];
      switch (e.op) {
        case '+':
          return num('number', (x) => a(x) + b(x));
        case '-':
          return num('number', (x) => a(x) - b(x));
        case '*':
          return num('number', (x) => a(x) * b(x));
        case '/':
          return num('number', (x) => a(x) / b(x));
        case 'and':
          return num('number', (x) => bool(a(x) !== 0 && b(x) !== 0));
        case 'or':
          return num('number', (x) => bool(a(x) !== 0 || b(x) !== 0));
      }
      // Text against text compares text; a number on either side compares numbers.
      const both = l.type === 'string' && r.type === 'string';
      const cmp = COMPARE[e.op];
      if (both) {
        const [s, t] = [l.txt, r.txt];
        return num('number', (x) => bool(cmp(s(x), t(x))));
      }
      return num('number', (x) => bool(cmp(a(x), b(x))));
    }
  }
}

const COMPARE: Record<string, <T extends number | string>(a: T, b: T) => boolean> = {
  '=': (a, b) => a === b,
  '!=': (a, b) => a !== b,
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
};
