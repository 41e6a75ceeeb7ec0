import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../config';
import { STAT_FIELDS, type FoldedSpanMetrics } from '../storage/telemetry/spanMetricRows';
import { DEFAULT_METRICS_FROM_SPANS } from './metricsFromSpans';
import { parseSpanExpr } from './spanMetricExpr';
import { DATAPOINT_TSV_COLUMNS } from '../storage/telemetry/spanMetricWriter';
import { compileSpanExprJs } from './spanMetricExprJs';
import { SpanMetricFold } from './spanMetricFold';
import { compileSpanMetrics, histogramBucket, minuteOf, seriesHash, spanMetricPoints } from './spanMetricPoints';
import type { SpanRow } from '../storage/telemetry/spanRow';
import { testSpanRow } from '../storage/telemetry/testSpanRow';

/** The fold of span rows into the metrics derived from them, before the engine. */
const T0 = 1_795_646_040n * 1_000_000_000n; // a minute's start

function row(extra: Partial<SpanRow> = {}): SpanRow {
  return testSpanRow({
    groupId: 18_446_744_073_709_551_615n,
    name: 'GET /users/:id',
    displayName: 'GET /users/42',
    groupName: 'GET /users/{id}',
    timeNs: T0 + 5_000_000_000n,
    durationNs: 2_000_000,
    attrs: { 'service.name': 'api', 'host.name': 'h1', 'http.status_code': 503, 'db.system': 7, _hidden: 'x' },
    ...extra,
  });
}

/** The points as their datapoint lines say, checked against the heads, tails and numbers beside them. */
function pointsOf(f: FoldedSpanMetrics | null) {
  if (f === null) return [];
  const lines = f.lines.split('\n').slice(0, -1);
  expect(lines).toHaveLength(f.heads.length);
  return lines.map((line, p) => {
    expect(line.startsWith(f.heads[p]) && `${line}\n`.endsWith(f.tails[p])).toBe(true);
    const c = Object.fromEntries(line.split('\t').map((v, i) => [DATAPOINT_TSV_COLUMNS[i], v]));
    expect(c.count).toBe(String(f.stats[p * STAT_FIELDS + 3]));
    const [bs, cs] = c.histogram.slice(1, -1).split('],[');
    const list = (t: string) => (t.replace(/[[\]]/g, '') ? t.replace(/[[\]]/g, '').split(',').map(Number) : []);
    return {
      def: f.stats[p * STAT_FIELDS + 1],
      metric: c.metric,
      time: Number(c.time),
      hash: c.attrs_hash,
      count: Number(c.count),
      sum: Number(c.sum),
      min: Number(c.min),
      max: Number(c.max),
      buckets: [list(bs), list(cs)],
      keys: c.string_keys,
      values: c.string_values.slice(2, -2).split("','"),
      annotations: c.annotations,
    };
  });
}

const evalText = (src: string, r = row()) => compileSpanExprJs(parseSpanExpr(src)).txt(r);
const evalNum = (src: string, r = row()) => compileSpanExprJs(parseSpanExpr(src)).num(r);

describe('span expressions in JS', () => {
  it('read the stored row: promoted attributes only as text, the group name as display.name, ids exactly', () => {
    expect(evalText('service.name')).toBe('api');
    expect(evalText('db.system')).toBe(''); // a promoted attribute that is not text has no column value
    expect(evalText('http.status_code')).toBe('503');
    expect(evalText('_hidden')).toBe('');
    expect(evalText('display.name')).toBe('GET /users/{id}');
    expect(evalText('.group_id')).toBe('18446744073709551615');
    expect(evalText('.trace_id')).toBe('ab'.repeat(16));
    expect(evalText('.duration / 1000')).toBe('2000');
    expect(evalText('.duration / 3000000')).toBe(String(2 / 3));
  });

  it('compare text with text and numbers otherwise; text that is no number reads as 0', () => {
    expect(evalNum("http.status_code >= 500 and .event_name = ''")).toBe(1);
    expect(evalNum("http.status_code < '6'")).toBe(1); // text against text: '503' < '6'
    expect(evalNum('http.status_code < 6')).toBe(0); // a number: 503 < 6
    expect(evalNum('service.name + 1')).toBe(1);
    expect(evalNum('not .is_event')).toBe(1);
    expect(evalNum('-.count * 2')).toBe(-2);
    expect(evalNum(".status_code = 'error' or .standalone")).toBe(0);
  });
});

describe('spanMetricPoints', () => {
  const metrics = compileSpanMetrics(DEFAULT_METRICS_FROM_SPANS);

  it('folds a request per series and minute: counts, sums, min/max, buckets and the annotation', () => {
    const rows = [
      row({ durationNs: 1_000_000 }),
      row({ durationNs: 3_000_000 }),
      row({ statusCode: 'error' }),
      row({ timeNs: T0 + 65_000_000_000n }), // the next minute
      row({ eventName: 'log', type: 'log', system: 'log:info', attrs: { 'log.severity': 'INFO', 'host.name': 'h1' } }),
    ];
    const points = pointsOf(spanMetricPoints(metrics, rows));
    const spans = points.filter((p) => p.def === 0);
    expect(spans.map((p) => [p.time - Number(T0 / 1_000_000_000n), p.values[4], p.count])).toEqual([
      [0, 'ok', 2],
      [0, 'error', 1],
      [60, 'ok', 1],
    ]);
    expect(spans[0]).toMatchObject({ sum: 4000, min: 1000, max: 3000 });
    expect(spans[0].buckets[1]).toEqual([1, 1]);
    expect(JSON.parse(spans[0].annotations)).toEqual({ 'display.name': 'GET /users/{id}' });
    const [events] = points.filter((p) => p.def === 1);
    expect(events).toMatchObject({ count: 1, sum: 1, min: 0, max: 0, buckets: [[], []] });
    expect(events.values).toEqual(['log:info', '18446744073709551615', 'log', 'h1', 'INFO']);
    expect(events.keys).toBe("['.system','.group_id','.name','host.name','log.severity']");
    expect(events.hash).toBe(seriesHash(['lantern.tracing.events', ...events.values].join('\u0000')));
    // The same attribute values make the same series; other values another.
    expect(spans[0].hash).toBe(spans[2].hash);
    expect(spans[0].hash).not.toBe(spans[1].hash);
  });

  it('folds the points of several requests into one row per series and minute', () => {
    const fold = new SpanMetricFold();
    fold.add(spanMetricPoints(metrics, [row({ durationNs: 1_000_000 })])!);
    fold.add(spanMetricPoints(metrics, [row({ durationNs: 1_000_000 }), row({ durationNs: 9_000_000 })])!);
    fold.add(spanMetricPoints(metrics, [row({ statusCode: 'error' })])!);
    const [m, e] = pointsOf(fold.points());
    expect(m).toMatchObject({ count: 3, sum: 11_000, min: 1000, max: 9000 });
    expect(m.buckets[1]).toEqual([2, 1]);
    expect(e).toMatchObject({ count: 1, sum: 2000, min: 2000, max: 2000 });
  });

  it('applies a where filter and a custom counter from the config', () => {
    const [custom] = ConfigSchema.parse({
      metrics_from_spans: [
        {
          name: 'test.http_5xx',
          instrument: 'counter',
          value: '1',
          attrs: ['service.name as svc'],
          where: ".event_name = '' and http.status_code >= 500",
        },
      ],
    }).metrics_from_spans;
    const points = pointsOf(
      spanMetricPoints(compileSpanMetrics([custom]), [
        row(),
        row({ attrs: { 'service.name': 'api', 'http.status_code': 200 } }),
      ]),
    );
    expect(points.map((p) => [p.values, p.count, p.sum])).toEqual([[['api'], 1, 1]]);
  });

  it('puts a row in its minute exactly, also within nanoseconds of the edge', () => {
    const start = Number(T0 / 1_000_000_000n);
    expect(minuteOf(T0)).toBe(start);
    expect(minuteOf(T0 - 1n)).toBe(start - 60);
    expect(minuteOf(T0 + 59_999_999_999n)).toBe(start);
    expect(minuteOf(T0 + 60_000_000_000n)).toBe(start + 60);
  });

  it('buckets 9 % wide: a value is within 5 % of its bucket midpoint', () => {
    for (const v of [1, 7.5, 1000, 123_456, 9e9]) expect(Math.abs(histogramBucket(v) - v) / v).toBeLessThan(0.05);
    expect(histogramBucket(0)).toBe(0);
    expect(histogramBucket(-3)).toBe(0);
  });
});
