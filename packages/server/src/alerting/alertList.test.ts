import { describe, expect, it } from 'vitest';
import type { Alert } from '@lantern/shared';
import { listAlerts, parseAlertQuery } from './alertList';

const alert = (id: number, over: Partial<Alert>): Alert => ({
  id,
  projectId: 1,
  name: `alert ${id}`,
  state: 'open',
  type: 'error',
  monitorId: 0,
  trackableModel: 'SpanGroup',
  trackableId: String(id),
  attrs: {},
  params: { traceId: '', spanId: '', spanCount: 1, spanCountTime: '' },
  createdAt: `2026-11-23T10:0${id}:00.000Z`,
  updatedAt: `2026-11-23T11:0${id}:00.000Z`,
  ...over,
});

const all = [
  alert(1, { name: 'TypeError: x is undefined', attrs: { 'service.name': 'api' } }),
  alert(2, { name: 'timeout', state: 'closed', attrs: { 'service.name': 'api' } }),
  alert(3, { name: 'cpu high', type: 'metric', attrs: { 'host.name': 'web1' } }),
  alert(4, { name: 'db down', attrs: { 'service.name': 'billing' } }),
];
const base = { q: '', attrs: {}, sort_by: 'updated_at' as const, sort_desc: true, page: 1, limit: 100 };

describe('listAlerts', () => {
  it('filters by state and computes facets without the facet own filter', () => {
    const r = listAlerts(all, { ...base, attrs: { 'alert.state': ['open'] } });
    expect(r.alerts.map((a) => a.id)).toEqual([4, 3, 1]);
    expect(r.count).toBe(3);
    expect(r.facets[0]).toEqual({ key: 'alert.state', items: [{ key: 'alert.state', value: 'open', count: 3 }, { key: 'alert.state', value: 'closed', count: 1 }] });
    expect(r.facets.map((f) => f.key)).toEqual(['alert.state', 'alert.type', 'host.name', 'service.name']);
    expect(r.facets[3].items).toEqual([{ key: 'service.name', value: 'api', count: 1 }, { key: 'service.name', value: 'billing', count: 1 }]);
  });
  it('ORs values of one key and ANDs keys', () => {
    const r = listAlerts(all, { ...base, attrs: { 'service.name': ['api', 'billing'], 'alert.state': ['open'] } });
    expect(r.alerts.map((a) => a.id)).toEqual([4, 1]);
    // The service facet ignores its own filter but keeps the state filter.
    expect(r.facets.find((f) => f.key === 'service.name')!.items.map((i) => [i.value, i.count])).toEqual([['api', 1], ['billing', 1]]);
  });
  it('matches free text words in name and attribute values, and extracts monitor:<id>', () => {
    expect(listAlerts(all, { ...base, q: 'typeerror API' }).alerts.map((a) => a.id)).toEqual([1]);
    expect(parseAlertQuery('monitor:12 cpu')).toEqual({ monitorId: 12, words: ['cpu'] });
  });
  it('sorts and pages', () => {
    const r = listAlerts(all, { ...base, sort_by: 'created_at', sort_desc: false, page: 2, limit: 2 });
    expect(r.alerts.map((a) => a.id)).toEqual([3, 4]);
    expect(r.count).toBe(4);
  });
});
