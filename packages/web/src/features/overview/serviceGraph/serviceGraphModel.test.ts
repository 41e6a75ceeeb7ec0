import { describe, expect, it } from 'vitest';
import { parseQuery, type ServiceGraphNode } from '@lantern/shared';
import {
  callDepths,
  edgeExplore,
  errorColor,
  ERROR_BANDS,
  layoutGraph,
  nodeExplore,
  NO_CALLS_COLOR,
} from './serviceGraphModel';

const node = (name: string, extra: Partial<ServiceGraphNode> = {}): ServiceGraphNode => ({
  name,
  type: 'service',
  virtual: false,
  calls: 1,
  errors: 0,
  p50: 1,
  p99: 1,
  ...extra,
});
const edge = (client: string, server: string) => ({
  client,
  server,
  connectionType: 'http' as const,
  calls: 1,
  errors: 0,
  p50: 1,
  p99: 1,
});

describe('callDepths', () => {
  it('puts callers left of callees by their longest chain of calls', () => {
    const d = callDepths(
      ['user', 'front', 'api', 'db', 'cron'].map((name) => ({ name })),
      [edge('user', 'front'), edge('front', 'api'), edge('api', 'db'), edge('front', 'db')],
    );
    expect(Object.fromEntries(d)).toEqual({ user: 0, front: 1, api: 2, db: 3, cron: 0 });
  });
  it('stops at cycles and ignores self-calls', () => {
    const d = callDepths(
      ['a', 'b'].map((name) => ({ name })),
      [edge('a', 'b'), edge('b', 'a'), edge('a', 'a')],
    );
    expect(Math.max(...d.values())).toBeLessThan(2);
  });
});

describe('layoutGraph', () => {
  it('gives each depth a column and each node of a column its own row', () => {
    const placed = layoutGraph(
      [node('user'), node('a'), node('b'), node('c')],
      [edge('user', 'a'), edge('user', 'b'), edge('a', 'c')],
    );
    const at = Object.fromEntries(placed.map((p) => [p.name, p]));
    expect(at.user.x).toBeLessThan(at.a.x);
    expect(at.a.x).toBe(at.b.x);
    expect(at.a.y).not.toBe(at.b.y);
    expect(at.c.x).toBeGreaterThan(at.a.x);
  });
});

describe('errorColor', () => {
  it('colours by the bands the legend states; grey without calls', () => {
    expect(errorColor({ calls: 0, errors: 0 })).toBe(NO_CALLS_COLOR);
    expect(errorColor({ calls: 1000, errors: 9 })).toBe(ERROR_BANDS[0].color);
    expect(errorColor({ calls: 100, errors: 1 })).toBe(ERROR_BANDS[1].color);
    expect(errorColor({ calls: 100, errors: 5 })).toBe(ERROR_BANDS[2].color);
  });
});

describe('Explore queries', () => {
  it("opens a service's server spans and a virtual node's calls", () => {
    expect(nodeExplore(node('check"out'))?.query).toBe(
      'where service.name = "check\\"out" | where .kind in ("server", "consumer")',
    );
    expect(nodeExplore(node('postgresql/shop', { type: 'database', virtual: true }))?.query).toBe(
      'where .kind in ("client", "producer") | where db.system = "postgresql" | where {db.name,db.namespace,server.address} contains "shop"',
    );
    expect(nodeExplore(node('user', { type: 'external', virtual: true }))).toBeNull();
  });
  it("opens an edge's client spans, narrowed to a virtual server; user edges open the root server spans", () => {
    expect(edgeExplore(edge('front', 'api'), node('api')).query).toBe(
      'where service.name = "front" | where .kind in ("client", "producer")',
    );
    expect(
      edgeExplore(edge('api', 'pay.example:443'), node('pay.example:443', { type: 'external', virtual: true })).query,
    ).toBe(
      'where service.name = "api" | where .kind in ("client", "producer") | where {peer.service,server.address,net.peer.name,network.peer.address} contains "pay.example"',
    );
    expect(edgeExplore(edge('user', 'front'), node('front')).query).toContain('where .parent_id = 0');
  });
  it('splits `service (environment)` names in projects that group by environment', () => {
    expect(nodeExplore(node('shop (prod)'), true)?.query).toBe(
      'where service.name = "shop" | where deployment.environment = "prod" | where .kind in ("server", "consumer")',
    );
    expect(nodeExplore(node('shop (prod)'), false)?.query).toBe(
      'where service.name = "shop (prod)" | where .kind in ("server", "consumer")',
    );
    expect(edgeExplore(edge('user', 'web (staging)'), node('web (staging)'), true).query).toBe(
      'where service.name = "web" | where deployment.environment = "staging" | where .kind in ("server", "consumer") | where .parent_id = 0',
    );
    expect(edgeExplore(edge('web (staging)', 'api (staging)'), node('api (staging)'), true).query).toBe(
      'where service.name = "web" | where deployment.environment = "staging" | where .kind in ("client", "producer")',
    );
  });
});

describe('Explore queries parse', () => {
  it('every part is one the query language takes', () => {
    const queries = [
      nodeExplore(node('a'))!.query,
      nodeExplore(node('kafka/orders', { type: 'messaging', virtual: true }))!.query,
      nodeExplore(node('postgresql/shop', { type: 'database', virtual: true }))!.query,
      nodeExplore(node('pay:443', { type: 'external', virtual: true }))!.query,
      edgeExplore(edge('user', 'a'), node('a')).query,
    ];
    for (const q of queries) for (const part of parseQuery(q)) expect(part.error, part.text).toBeUndefined();
  });
});
