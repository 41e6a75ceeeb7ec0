import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../config';
import { DEFAULT_METRICS_FROM_SPANS, type SpanMetricDefinition } from './metricsFromSpans';
import { spanMetricsModel } from './spanMetricPoints';
import { sql } from '../storage/sql';
import { openChdbStore } from '../storage/telemetry/chdbStore';
import type { SpanRow } from '../storage/telemetry/spanRow';
import type { TelemetryStore } from '../storage/telemetry/telemetryStore';
import { testSpanRow } from '../storage/telemetry/testSpanRow';

/** The views that derive metrics from span rows, on the embedded engine. */
const NOW_NS = BigInt(Date.now()) * 1_000_000n;
const limits = { ttl: { spansDays: 30, metricsDays: 90 }, maxMemoryUsage: 2 * 1024 ** 3, maxThreads: 2 };

function row(i: number, extra: Partial<SpanRow> = {}): SpanRow {
  return testSpanRow({
    projectId: 7,
    traceId: 'cd'.repeat(15) + (i % 256).toString(16).padStart(2, '0'),
    id: BigInt(1000 + i),
    groupId: 42n,
    name: 'GET /users/:id',
    displayName: 'GET /users/{id}',
    timeNs: NOW_NS + BigInt(i),
    attrs: { 'service.name': 'api', 'host.name': 'h1', 'http.status_code': 200 },
    ...extra,
  });
}

describe('metrics_from_spans views', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-span-metrics-'));
  let store: TelemetryStore;
  const custom: SpanMetricDefinition = ConfigSchema.parse({
    metrics_from_spans: [
      ...DEFAULT_METRICS_FROM_SPANS,
      {
        name: 'test.http_5xx',
        instrument: 'counter',
        value: '1',
        attrs: ['service.name as svc'],
        where: ".event_name = '' and http.status_code >= 500",
      },
    ],
  }).metrics_from_spans[2];

  beforeAll(async () => {
    store = openChdbStore({
      path: dir,
      ...limits,
      spanMetrics: spanMetricsModel([...DEFAULT_METRICS_FROM_SPANS, custom]),
    });
    await store.migrate();
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes one folded datapoint per series and minute in the same insert as the spans', async () => {
    const rows = [
      ...Array.from({ length: 30 }, (_, i) => row(i, { durationNs: (i + 1) * 1_000_000 })),
      ...Array.from({ length: 5 }, (_, i) =>
        row(100 + i, {
          statusCode: 'error',
          attrs: { 'service.name': 'api', 'host.name': 'h1', 'http.status_code': 503 },
        }),
      ),
      row(200, {
        eventName: 'log',
        type: 'log',
        system: 'log:error',
        groupId: 9n,
        attrs: { 'log.severity': 'ERROR', 'host.name': 'h1' },
      }),
      row(201, {
        eventName: 'exception',
        type: 'exceptions',
        system: 'exceptions',
        groupId: 9n,
        attrs: { 'host.name': 'h1' },
      }),
    ];
    await store.insertSpans(rows);
    const spans = await store.query<{
      status: string;
      count: string;
      sum: number;
      min: number;
      max: number;
      annotations: string;
    }>(
      sql`SELECT string_values[indexOf(string_keys, '.status_code')] AS status, sum(count) AS count, sum(sum) AS sum, min(min) AS min, max(max) AS max, any(annotations) AS annotations
        FROM datapoint_minutes WHERE project_id = 7 AND metric = 'lantern.tracing.spans' GROUP BY status ORDER BY status`,
    );
    expect(spans.map((s) => [s.status, Number(s.count)])).toEqual([
      ['error', 5],
      ['ok', 30],
    ]);
    const ok = spans[1];
    expect(ok.min).toBe(1000);
    expect(ok.max).toBe(30_000);
    expect(ok.sum).toBe(((30 * 31) / 2) * 1000);
    expect(JSON.parse(ok.annotations)).toEqual({ 'display.name': 'GET /users/{id}' });

    const [events] = await store.query<{ sum: number; keys: string[] }>(
      sql`SELECT sum(sum) AS sum, any(string_keys) AS keys FROM datapoint_minutes WHERE project_id = 7 AND metric = 'lantern.tracing.events'`,
    );
    expect(events.sum).toBe(2);
    expect(events.keys).toEqual(['.system', '.group_id', '.name', 'host.name', 'log.severity']);

    const [errors] = await store.query<{ sum: number; svc: string }>(
      sql`SELECT sum(sum) AS sum, any(string_values[1]) AS svc FROM datapoint_minutes WHERE project_id = 7 AND metric = 'test.http_5xx'`,
    );
    expect(errors).toEqual({ sum: 5, svc: 'api' });
  });

  it('keeps histogram buckets 9 % wide around the durations', async () => {
    const [h] = await store.query<{ h: [number[], string[]] }>(
      sql`SELECT sumMap(histogram) AS h FROM datapoint_minutes WHERE project_id = 7 AND metric = 'lantern.tracing.spans'`,
    );
    const [values, counts] = h.h;
    expect(counts.map(Number).reduce((a, b) => a + b, 0)).toBe(35);
    // 1000 µs (the five errors and the first ok span) sits in a bucket whose midpoint is within 5 %.
    const near = values.filter((v) => Math.abs(v - 1000) / 1000 < 0.05);
    expect(near).toHaveLength(1);
    expect(Number(counts[values.indexOf(near[0])])).toBe(6);
  });

  it('lists the metrics in the catalogue for the project that has such spans', async () => {
    const rows = await store.query<{ name: string; unit: string; instrument: string; keys: string[] }>(
      sql`SELECT name, argMax(unit, updated_at) AS unit, argMax(instrument, updated_at) AS instrument, argMax(attr_keys, updated_at) AS keys FROM metrics_catalog WHERE project_id = 7 GROUP BY name ORDER BY name`,
    );
    expect(rows).toEqual([
      {
        name: 'lantern.tracing.events',
        unit: '',
        instrument: 'counter',
        keys: ['.system', '.group_id', '.name', 'host.name', 'log.severity'],
      },
      {
        name: 'lantern.tracing.spans',
        unit: 'microseconds',
        instrument: 'histogram',
        keys: ['.system', '.group_id', 'service.name', 'host.name', '.status_code'],
      },
      { name: 'test.http_5xx', unit: '', instrument: 'counter', keys: ['svc'] },
    ]);
  });

  it('follows the config at the next start: a removed definition stops, the others go on; none, no views', async () => {
    await store.close();
    store = openChdbStore({ path: dir, ...limits, spanMetrics: spanMetricsModel(DEFAULT_METRICS_FROM_SPANS) });
    await store.migrate();
    const views = await store.query<{ name: string }>(
      sql`SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE 'span_metric%' ORDER BY name`,
    );
    // Computed before the engine (spanMetricPoints.ts): no view runs on a span insert.
    expect(views).toEqual([]);
    await store.insertSpans([
      row(300, { statusCode: 'error', attrs: { 'service.name': 'api', 'http.status_code': 500 } }),
    ]);
    const [c] = await store.query<{ spans: string; custom: number }>(
      sql`SELECT sumIf(count, metric = 'lantern.tracing.spans') AS spans, sumIf(sum, metric = 'test.http_5xx') AS custom FROM datapoint_minutes WHERE project_id = 7`,
    );
    expect(Number(c.spans)).toBe(36);
    expect(c.custom).toBe(5);

    await store.close();
    store = openChdbStore({ path: dir, ...limits, spanMetrics: spanMetricsModel([]) });
    await store.migrate();
    expect(
      await store.query(
        sql`SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE 'span_metric%'`,
      ),
    ).toEqual([]);
    await store.insertSpans([row(301)]);
    const [after] = await store.query<{ n: string }>(
      sql`SELECT sum(count) AS n FROM datapoint_minutes WHERE project_id = 7 AND metric = 'lantern.tracing.spans'`,
    );
    expect(Number(after.n)).toBe(36);
  });
});
