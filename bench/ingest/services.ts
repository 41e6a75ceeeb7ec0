import type { Rng } from './rng';
import { bool, dbl, int, str, type PbAttr } from './otlpProto';

/**
 * The fictional shop the benchmark traces: six services in five languages, each on a few hosts,
 * with the resource attributes real SDKs send, and builders for the span shapes of each system
 * (http server/client, rpc, db, messaging, internal funcs) with the attributes the OpenTelemetry
 * instrumentations set. Values vary (ids, statements, sizes) so rows are not all alike.
 */
export type ServiceName = 'frontend' | 'checkout' | 'cart' | 'payment' | 'shipping' | 'catalog';

export interface Service {
  name: ServiceName;
  language: string;
  sdkVersion: string;
  runtime: string;
  version: string;
  hosts: string[];
}

export const SERVICES: Record<ServiceName, Service> = {
  frontend: {
    name: 'frontend',
    language: 'nodejs',
    sdkVersion: '1.30.1',
    runtime: 'nodejs',
    version: '2.14.0',
    hosts: ['web-1', 'web-2', 'web-3'],
  },
  checkout: {
    name: 'checkout',
    language: 'go',
    sdkVersion: '1.34.0',
    runtime: 'go',
    version: '1.8.3',
    hosts: ['app-1', 'app-2'],
  },
  cart: {
    name: 'cart',
    language: 'dotnet',
    sdkVersion: '1.11.2',
    runtime: '.NET',
    version: '3.2.0',
    hosts: ['app-1', 'app-3'],
  },
  payment: {
    name: 'payment',
    language: 'java',
    sdkVersion: '1.48.0',
    runtime: 'OpenJDK Runtime Environment',
    version: '5.0.1',
    hosts: ['pay-1', 'pay-2'],
  },
  shipping: {
    name: 'shipping',
    language: 'python',
    sdkVersion: '1.31.1',
    runtime: 'cpython',
    version: '0.9.12',
    hosts: ['worker-1', 'worker-2'],
  },
  catalog: {
    name: 'catalog',
    language: 'go',
    sdkVersion: '1.34.0',
    runtime: 'go',
    version: '4.1.0',
    hosts: ['app-2', 'app-3'],
  },
};

export const ENVIRONMENT = 'production';

export function resourceAttrs(svc: Service, host: string, pid: number): PbAttr[] {
  return [
    str('service.name', svc.name),
    str('service.version', svc.version),
    str('service.namespace', 'shop'),
    str('host.name', host),
    str('deployment.environment', ENVIRONMENT),
    str('telemetry.sdk.name', 'opentelemetry'),
    str('telemetry.sdk.language', svc.language),
    str('telemetry.sdk.version', svc.sdkVersion),
    str('process.runtime.name', svc.runtime),
    int('process.pid', pid),
  ];
}

/** What a builder returns; the generator adds ids, times, status and events. */
export interface SpanShape {
  name: string;
  kind: number;
  attrs: PbAttr[];
}

export const KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
];

export function httpServer(rng: Rng, route: string, target: string, method: string, status: number): SpanShape {
  return {
    name: `${method} ${route}`,
    kind: KIND.server,
    attrs: [
      str('http.method', method),
      str('http.route', route),
      str('http.target', target),
      str('http.scheme', 'http'),
      str('http.flavor', '1.1'),
      int('http.status_code', status),
      str('http.host', 'shop.example.com'),
      str('http.user_agent', rng.pick(USER_AGENTS)),
      str('net.host.name', 'shop.example.com'),
      int('net.host.port', 8080),
      str('net.sock.peer.addr', `10.0.${rng.int(0, 7)}.${rng.int(2, 250)}`),
      int('http.request_content_length', method === 'GET' ? 0 : rng.int(80, 4000)),
      int('http.response_content_length', rng.int(200, 60_000)),
      ...(rng.chance(0.6) ? [str('enduser.id', `u-${rng.int(1, 50_000)}`)] : []),
    ],
  };
}

export function httpClient(rng: Rng, host: string, path: string, method: string, status: number): SpanShape {
  return {
    name: `${method}`,
    kind: KIND.client,
    attrs: [
      str('http.method', method),
      str('http.url', `https://${host}${path}`),
      str('http.target', path),
      str('http.scheme', 'https'),
      str('http.flavor', '1.1'),
      int('http.status_code', status),
      str('net.peer.name', host),
      int('net.peer.port', 443),
      int('http.request_content_length', method === 'GET' ? 0 : rng.int(100, 2000)),
      int('http.response_content_length', rng.int(100, 20_000)),
      int('http.resend_count', rng.chance(0.05) ? 1 : 0),
    ],
  };
}

export function rpc(rng: Rng, side: 'server' | 'client', service: string, method: string, peer: string): SpanShape {
  return {
    name: `${service}/${method}`,
    kind: side === 'server' ? KIND.server : KIND.client,
    attrs: [
      str('rpc.system', 'grpc'),
      str('rpc.service', service),
      str('rpc.method', method),
      int('rpc.grpc.status_code', 0),
      str('net.peer.name', peer),
      int('net.peer.port', 50051),
      str('net.transport', 'ip_tcp'),
      str('net.sock.peer.addr', `10.0.${rng.int(0, 7)}.${rng.int(2, 250)}`),
      int('rpc.request.size', rng.int(20, 3000)),
      int('rpc.response.size', rng.int(20, 8000)),
      str('rpc.grpc.request.metadata.x-request-id', rng.hex(16)),
    ],
  };
}

const SQL: { op: string; table: string; text: (rng: Rng) => string }[] = [
  {
    op: 'SELECT',
    table: 'orders',
    text: (r) =>
      `SELECT id, status, total_cents, created_at FROM orders WHERE customer_id = ${r.int(1, 90_000)} ORDER BY created_at DESC LIMIT 20`,
  },
  {
    op: 'SELECT',
    table: 'products',
    text: (r) =>
      `SELECT p.id, p.name, p.price_cents, s.quantity FROM products p JOIN stock s ON s.product_id = p.id WHERE p.id IN (${r.int(1, 9000)}, ${r.int(1, 9000)}, ${r.int(1, 9000)})`,
  },
  {
    op: 'INSERT',
    table: 'payments',
    text: (r) =>
      `INSERT INTO payments (order_id, amount_cents, currency, provider_ref) VALUES (${r.int(1, 1e6)}, ${r.int(100, 90_000)}, 'EUR', 'ch_${r.hex(12)}')`,
  },
  {
    op: 'UPDATE',
    table: 'orders',
    text: (r) => `UPDATE orders SET status = 'paid', updated_at = now() WHERE id = ${r.int(1, 1e6)}`,
  },
  {
    op: 'SELECT',
    table: 'customers',
    text: (r) => `SELECT id, email, country FROM customers WHERE id = ${r.int(1, 90_000)}`,
  },
  {
    op: 'INSERT',
    table: 'shipments',
    text: (r) =>
      `INSERT INTO shipments (order_id, carrier, eta) VALUES (${r.int(1, 1e6)}, 'dhl', '2026-12-0${r.int(1, 9)}')`,
  },
];

export function sqlQuery(rng: Rng, system: 'postgresql' | 'mysql', dbName: string, peer: string): SpanShape {
  const q = rng.pick(SQL);
  return {
    name: `${q.op} ${dbName}.${q.table}`,
    kind: KIND.client,
    attrs: [
      str('db.system', system),
      str('db.name', dbName),
      str('db.statement', q.text(rng)),
      str('db.operation', q.op),
      str('db.sql.table', q.table),
      str('db.user', `${dbName}_app`),
      str('db.connection_string', `${system}://${peer}:${system === 'mysql' ? 3306 : 5432}`),
      str('net.peer.name', peer),
      int('net.peer.port', system === 'mysql' ? 3306 : 5432),
      str('net.transport', 'ip_tcp'),
      ...(q.op === 'SELECT' ? [int('db.response.returned_rows', rng.int(0, 20))] : []),
      ...(rng.chance(0.3)
        ? [str('thread.name', `pool-1-thread-${rng.int(1, 16)}`), int('thread.id', rng.int(20, 80))]
        : []),
    ],
  };
}

const REDIS = ['GET', 'SET', 'HGETALL', 'HSET', 'EXPIRE', 'DEL'];

export function redisCommand(rng: Rng): SpanShape {
  const op = rng.pick(REDIS);
  const key = `cart:${rng.int(1, 90_000)}`;
  return {
    name: op,
    kind: KIND.client,
    attrs: [
      str('db.system', 'redis'),
      str('db.statement', op === 'SET' || op === 'HSET' ? `${op} ${key} ?` : `${op} ${key}`),
      str('db.operation', op),
      int('db.redis.database_index', 0),
      str('net.peer.name', 'redis-cart'),
      int('net.peer.port', 6379),
      str('net.transport', 'ip_tcp'),
      str('net.sock.peer.addr', `10.0.9.${rng.int(2, 9)}`),
      int('net.sock.peer.port', 6379),
      str('db.connection_string', 'redis://redis-cart:6379'),
    ],
  };
}

export function messaging(rng: Rng, side: 'producer' | 'consumer', topic: string, group: string): SpanShape {
  const attrs = [
    str('messaging.system', 'kafka'),
    str('messaging.operation', side === 'producer' ? 'publish' : 'process'),
    str('messaging.destination.name', topic),
    str('messaging.destination.kind', 'topic'),
    int('messaging.kafka.destination.partition', rng.int(0, 11)),
    str('messaging.message.id', rng.hex(24)),
    int('messaging.message.payload_size_bytes', rng.int(200, 6000)),
    str('messaging.client_id', `${group}-${rng.int(1, 4)}`),
    str('net.peer.name', `kafka-${rng.int(1, 3)}`),
    int('net.peer.port', 9092),
  ];
  if (side === 'consumer') {
    attrs.push(str('messaging.kafka.consumer.group', group), int('messaging.kafka.message.offset', rng.int(1, 5e6)));
  }
  return {
    name: `${topic} ${side === 'producer' ? 'publish' : 'process'}`,
    kind: side === 'producer' ? KIND.producer : KIND.consumer,
    attrs,
  };
}

export function func(rng: Rng, svc: Service, fn: string): SpanShape {
  const ns = `${svc.name}.${fn.split('.')[0]}`;
  return {
    name: fn,
    kind: KIND.internal,
    attrs: [
      str('code.function', fn),
      str('code.namespace', ns),
      str('code.filepath', `/srv/${svc.name}/src/${fn.split('.')[0]}.${svc.language === 'go' ? 'go' : 'ts'}`),
      int('code.lineno', rng.int(10, 900)),
      str('thread.name', rng.pick(['main', 'worker', 'event-loop'])),
      int('thread.id', rng.int(1, 64)),
      int('items.count', rng.int(0, 40)),
      dbl('cache.hit_ratio', Math.round(rng.next() * 1000) / 1000),
      bool('feature.new_pricing', rng.chance(0.3)),
      str('tenant.id', `t-${rng.int(1, 400)}`),
      ...(rng.chance(0.5) ? [str('request.id', rng.hex(32))] : []),
    ],
  };
}
