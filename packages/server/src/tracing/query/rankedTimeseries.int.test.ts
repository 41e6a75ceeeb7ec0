import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, param, sql, type SqlFragment } from '../../storage/sql';
import { openChdbStore, type TelemetryStore } from '../../storage/telemetry';
import type { RangeScope } from './scope';
import { createQueryService } from './service';
import { DEFAULT_QUERY } from './tracingTestServer';

/**
 * A time series that reads only the groups that can rank among its 100 series, by a rollup's
 * counts (builders.ts topGroups), answers what the query of every group answers: the same 100
 * series in the same order, every value the same. The data: 180 groups over 24 h
 * (more than the 100 kept), some tied at the 100th's total, in http and db spans of two
 * environments (a filter that keeps some spans of a group and not others), some spans without one.
 */
const HOUR = 3600_000;
const end = Math.floor((Date.now() - HOUR) / HOUR) * HOUR;
let dir: string;
let store: TelemetryStore;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-ranked-'));
  store = openChdbStore({ path: dir, ttl: { spansDays: 30, metricsDays: 30 }, maxMemoryUsage: 2e9, maxThreads: 2 });
  await store.migrate();
  // Span n: group g = n % 180 (g < 120 http, else db); group g has 20 + (g % 60) * 4 spans (g,
  // g + 60 and g + 120 tie: the 100th series is one of three with its total), spread over the 24 h.
  await store.query(sql`INSERT INTO spans_index (project_id, system, group_id, time, trace_id, id, parent_id, type, kind,
      name, display_name, duration, count, status_code, attr_keys, attr_values, deployment_environment, service_name, host_name)
    WITH number AS n, n % 180 AS g, intDiv(n, 180) AS i, g < 120 AS is_http,
      if(is_http, concat('http:svc-', toString(g % 3)), 'db:postgresql') AS sys, concat('op', toString(g)) AS span_name
    SELECT 1, sys, cityHash64(sys, span_name), toDateTime64(${param.float64((end - 24 * HOUR) / 1000)} + cityHash64(n, 1) % 86400, 6, 'UTC'),
      generateUUIDv4(), cityHash64(n, 2), 0, if(is_http, 'http', 'db'), 'server', span_name, span_name,
      toInt64(1000 + cityHash64(n, 3) % 5000000), 1, if(cityHash64(n, 4) % 20 = 0, 'error', 'ok'), [], [],
      multiIf(cityHash64(n, 5) % 10 < 7, 'prod', cityHash64(n, 5) % 10 < 9, 'staging', ''),
      concat('svc-', toString(g % 3)), concat('host-', toString(g % 7))
    FROM numbers(180 * 260) WHERE i < 20 + (g % 60) * 4`);
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const scope = (systems: string[], hours = 24): RangeScope => ({
  projectId: 1,
  gte: new Date(end - hours * HOUR),
  lt: new Date(end),
  systems,
});

describe('a time series ranked first by its counts', () => {
  it.each([
    [
      'the attribute rollup (all systems, a filter)',
      scope([]),
      `${DEFAULT_QUERY} | where deployment.environment = "prod"`,
    ],
    [
      'the spans, ranked from the attribute rollup',
      scope(['http:all']),
      `${DEFAULT_QUERY} | where deployment.environment != "staging"`,
    ],
    ['the quarter-hour rows, ranked from them (24 h)', scope([]), DEFAULT_QUERY],
    [
      'the minute rows, ranked from them (1 h)',
      scope(['spans:all'], 1),
      `group by .group_id | .count | p95(.duration)`,
    ],
    ['a filter every span passes', scope([]), `${DEFAULT_QUERY} | where host.name != "nowhere"`],
    ['fewer series than kept', scope([]), `${DEFAULT_QUERY} | where host.name = "host-3"`],
    ['a count first', scope([]), `group by .group_id | count() | p50(.duration) | where service.name != "svc-1"`],
  ])('answers as the whole query: %s', async (_label, sc, query) => {
    const texts: string[] = [];
    const seen = new Proxy(store, {
      get: (t, k) =>
        k === 'query'
          ? (q: SqlFragment) => (texts.push(compile(q).text), t.query(q))
          : (t as unknown as Record<PropertyKey, unknown>)[k],
    });
    const ranked = await createQueryService(seen).timeseries(sc, query);
    // One query, of the groups that can be kept.
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain('s.group_id GLOBAL IN (SELECT s.group_id FROM ');
    const whole = await createQueryService(store, { rankFirst: false }).timeseries(sc, query);
    expect(ranked.groups.length).toBe(query.includes('host-3') ? whole.groups.length : 100);
    expect(ranked.groups.map((g) => g._id)).toEqual(whole.groups.map((g) => g._id));
    expect(ranked).toEqual(whole);
  });
});
