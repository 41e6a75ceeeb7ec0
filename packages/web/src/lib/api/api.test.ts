import { authRoutes, dashboardsRoutes, tracingRoutes } from '@lantern/shared';
import { partialMatchKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { apiUrl, queryKey, scopeKey } from './api';

describe('apiUrl', () => {
  it("fills the path's params and writes lists as the key repeated", () => {
    expect(
      apiUrl(tracingRoutes.tracingSpans, {
        params: { projectId: 3 },
        query: { time_gte: 'a', time_lt: 'b', system: ['db:all', 'http:all'], page: 2 },
      }),
    ).toBe('/api/v1/tracing/3/spans?time_gte=a&time_lt=b&system=db%3Aall&system=http%3Aall&page=2');
  });
  it('encodes a param and leaves out a missing query', () => {
    expect(apiUrl(dashboardsRoutes.dashboard, { params: { projectId: 1, dashId: 'a/b' } })).toBe(
      '/api/v1/metrics/1/dashboards/a%2Fb',
    );
    expect(apiUrl(authRoutes.currentUser, {})).toBe('/api/v1/users/current');
  });
  it('refuses a missing param instead of calling a wrong path', () => {
    expect(() => apiUrl(tracingRoutes.trace, { params: { projectId: 1, traceId: '' } })).toThrow(/traceId/);
  });
});

describe('queryKey', () => {
  const spans = (projectId: number | string, page: number) =>
    queryKey(tracingRoutes.tracingSpans, { params: { projectId }, query: { time_gte: 'a', time_lt: 'b', page } });

  it('is the same for a number and a text id', () => {
    expect(spans(1, 1)).toEqual(spans('1', 1));
    expect(spans(1, 1)).not.toEqual(spans(1, 2));
  });
  it('without a query is the prefix of every call of the contract with those params', () => {
    const prefix = queryKey(tracingRoutes.tracingSpans, { params: { projectId: 1 } });
    expect(partialMatchKey(spans(1, 1), prefix)).toBe(true);
    expect(partialMatchKey(spans(2, 1), prefix)).toBe(false);
    expect(partialMatchKey(spans(2, 1), queryKey(tracingRoutes.tracingSpans))).toBe(true);
  });
  it("scopeKey reaches every call of the domain whose params include the scope's", () => {
    const trace = queryKey(tracingRoutes.trace, { params: { projectId: 1, traceId: 't' } });
    expect(partialMatchKey(trace, scopeKey(tracingRoutes.tracingSpans, { projectId: 1 }))).toBe(true);
    expect(partialMatchKey(trace, scopeKey(tracingRoutes.tracingSpans, { projectId: 2 }))).toBe(false);
    const dash = { projectId: 1, dashId: '7' };
    const gauges = queryKey(dashboardsRoutes.gauges, { params: dash, query: { dash_kind: 'grid' } });
    const list = queryKey(dashboardsRoutes.dashboards, { params: { projectId: 1 } });
    expect(partialMatchKey(gauges, scopeKey(dashboardsRoutes.dashboard, dash))).toBe(true);
    expect(partialMatchKey(list, scopeKey(dashboardsRoutes.dashboard, dash))).toBe(false);
  });
});
