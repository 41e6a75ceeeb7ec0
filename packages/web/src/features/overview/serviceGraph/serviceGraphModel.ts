import { quoteQueryString, type ServiceGraphEdge, type ServiceGraphNode } from '@lantern/shared';

/**
 * The service graph's pure parts (issue 36): the left-to-right layout by call depth, the colour
 * by error rate and its thresholds, and the Explore queries of a node or an edge.
 */

/** Error-rate bands, lowest first: the legend states them and nodes and edges take their colour. */
export const ERROR_BANDS = [
  { below: 0.01, color: '#43A047', label: 'under 1 % errors' },
  { below: 0.05, color: '#FB8C00', label: '1 – 5 % errors' },
  { below: Infinity, color: '#E53935', label: '5 % errors or more' },
] as const;
export const NO_CALLS_COLOR = '#9E9E9E';

export function errorRate(x: { calls: number; errors: number }): number | null {
  return x.calls > 0 ? x.errors / x.calls : null;
}

export function errorColor(x: { calls: number; errors: number }): string {
  const rate = errorRate(x);
  if (rate === null) return NO_CALLS_COLOR;
  return ERROR_BANDS.find((b) => rate < b.below)!.color;
}

/**
 * Column of each node: its call depth, the longest chain of calls that leads to it from a node
 * nobody calls (callers left of callees). A cycle (A calls B calls A) is cut where it closes: a
 * node's depth only grows along edges while fewer steps than there are nodes have been taken.
 */
export function callDepths(nodes: readonly { name: string }[], edges: readonly { client: string; server: string }[]) {
  const depth = new Map(nodes.map((n) => [n.name, 0]));
  for (const e of edges) {
    if (!depth.has(e.client)) depth.set(e.client, 0);
    if (!depth.has(e.server)) depth.set(e.server, 0);
  }
  for (let round = 0; round < depth.size; round++) {
    let changed = false;
    for (const e of edges) {
      if (e.client === e.server) continue;
      const next = depth.get(e.client)! + 1;
      if (next > depth.get(e.server)! && next < depth.size) {
        depth.set(e.server, next);
        changed = true;
      }
    }
    if (!changed) break;
  }
  return depth;
}

export interface PlacedNode {
  name: string;
  x: number;
  y: number;
  depth: number;
}

export const COLUMN_GAP = 240;
export const ROW_GAP = 90;

/** Fixed positions: a column per depth, nodes of a column sorted by name and centred vertically. */
export function layoutGraph(nodes: readonly ServiceGraphNode[], edges: readonly ServiceGraphEdge[]): PlacedNode[] {
  const depths = callDepths(nodes, edges);
  const columns = new Map<number, string[]>();
  for (const [name, d] of depths) columns.set(d, [...(columns.get(d) ?? []), name]);
  const tallest = Math.max(0, ...[...columns.values()].map((c) => c.length));
  const placed: PlacedNode[] = [];
  for (const [depth, names] of [...columns].sort((a, b) => a[0] - b[0])) {
    names.sort((a, b) => a.localeCompare(b));
    const offset = ((tallest - names.length) * ROW_GAP) / 2;
    names.forEach((name, i) => placed.push({ name, depth, x: depth * COLUMN_GAP, y: offset + i * ROW_GAP }));
  }
  return placed;
}

/** What Explore spans opens for a node or an edge: a system and a query over the same range. */
export interface ExploreTarget {
  system: string;
  query: string;
}

const where = (attr: string, value: string) => `where ${attr} = ${quoteQueryString(value)}`;
const whereAny = (attrs: string[], value: string) => `where {${attrs.join(',')}} contains ${quoteQueryString(value)}`;

/** The client spans that make calls to a virtual node (how the server named it: pairingSql.ts). */
function virtualTargetWheres(node: Pick<ServiceGraphNode, 'name' | 'type'>): string[] {
  const [system, ...rest] = node.name.split('/');
  const target = rest.join('/');
  if (node.type === 'database')
    return [
      where('db.system', system),
      ...(target ? [whereAny(['db.name', 'db.namespace', 'server.address'], target)] : []),
    ];
  if (node.type === 'messaging')
    return [
      where('messaging.system', system),
      ...(target ? [whereAny(['messaging.destination.name', 'messaging.destination'], target)] : []),
    ];
  const host = node.name.replace(/:\d+$/, '');
  return [whereAny(['peer.service', 'server.address', 'net.peer.name', 'network.peer.address'], host)];
}

export const USER_NODE = 'user';

/**
 * The where parts of a service node's spans. In a project that groups by environment the server
 * names a service's node `service (environment)` (tracing/serviceGraph/pairingSql.ts).
 */
export function serviceWheres(name: string, groupByEnv = false): string[] {
  const split = groupByEnv ? /^(.*) \(([^()]+)\)$/.exec(name) : null;
  return split
    ? [where('service.name', split[1]), where('deployment.environment', split[2])]
    : [where('service.name', name)];
}

/** A service's server spans; a virtual node's calls into it (client spans named as it is). */
export function nodeExplore(
  node: Pick<ServiceGraphNode, 'name' | 'type' | 'virtual'>,
  groupByEnv = false,
): ExploreTarget | null {
  if (node.virtual && node.name === USER_NODE) return null;
  if (node.virtual)
    return {
      system: 'spans:all',
      query: ['where .kind in ("client", "producer")', ...virtualTargetWheres(node)].join(' | '),
    };
  return {
    system: 'spans:all',
    query: [...serviceWheres(node.name, groupByEnv), 'where .kind in ("server", "consumer")'].join(' | '),
  };
}

/**
 * An edge's client spans: the client service's client spans, narrowed to the server when it is a
 * virtual node (a paired server's name is not on its client spans); `user` edges: the server's
 * root server spans.
 */
export function edgeExplore(
  edge: Pick<ServiceGraphEdge, 'client' | 'server'>,
  serverNode: Pick<ServiceGraphNode, 'name' | 'type' | 'virtual'> | undefined,
  groupByEnv = false,
): ExploreTarget {
  if (edge.client === USER_NODE)
    return {
      system: 'spans:all',
      query: [
        ...serviceWheres(edge.server, groupByEnv),
        'where .kind in ("server", "consumer")',
        'where .parent_id = 0',
      ].join(' | '),
    };
  return {
    system: 'spans:all',
    query: [
      ...serviceWheres(edge.client, groupByEnv),
      'where .kind in ("client", "producer")',
      ...(serverNode?.virtual ? virtualTargetWheres(serverNode) : []),
    ].join(' | '),
  };
}
