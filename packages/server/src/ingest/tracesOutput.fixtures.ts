import { createHash } from 'node:crypto';
import { Rng } from '../../../../bench/ingest/rng';
import { encodeTracesRequest } from '../../../../bench/ingest/otlpProto';
import { generateRequest } from '../../../../bench/ingest/traceGenerator';
import { encodeSpans } from '../storage/telemetry/spanRowEncoding';
import { ExportTraceServiceRequest } from './otlp/protoRoot';
import type { ProjectOptions } from './produced';
import { storable } from './storableRows';
import { produceOtlpTraces } from './tracesIngest';

/**
 * Request bodies that pin what the OTLP trace path stores (tracesOutput.test.ts): the ingest
 * bench's realistic requests, and a request of odd spans (every value
 * type, escapes, caps, aliases, events, links, bad ids and times). Each goes through the prepare
 * worker's steps (decode, normalise, storable, encode) and the encoded bytes are digested: a change
 * of a digest is a change of what is stored. Not used by production code.
 */

const NOW_NS = 1_764_000_000_000_000_000n;

export const OPTION_SETS: readonly ProjectOptions[] = [
  { projectId: 1, groupByEnv: false, groupFuncsByService: false },
  { projectId: 7, groupByEnv: true, groupFuncsByService: true },
];

/** The bench's requests (bench/ingest/traceGenerator.ts) at a fixed time. */
export function benchBodies(seed: number, requests: number, spans: number): Buffer[] {
  const rng = new Rng(seed);
  const out: Buffer[] = [];
  for (let i = 0; i < requests; i++) {
    const bytes = encodeTracesRequest(generateRequest(rng, NOW_NS, spans).request);
    out.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
  return out;
}

const hex = (h: string) => Buffer.from(h, 'hex');
const s = (key: string, v: string) => ({ key, value: { stringValue: v } });
const TRACE = '0af7651916cd43dd8448eb211c80319c';
const T0 = 1_764_000_000_000_000_000n;

function oddSpan(i: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    traceId: hex(i % 3 === 0 ? TRACE : (i + 1).toString(16).padStart(32, 'a')),
    spanId: hex((i + 1).toString(16).padStart(16, '0')),
    parentSpanId: i % 4 === 0 ? undefined : hex('00f067aa0ba902b7'),
    name: `op ${i}`,
    kind: i % 7,
    startTimeUnixNano: String(T0 + BigInt(i) * 1_000_000n),
    endTimeUnixNano: String(T0 + BigInt(i) * 1_000_000n + 2_500_000n),
    ...over,
  };
}

/** Spans that reach every branch of normalisation and encoding the bench's spans do not. */
export function oddBody(): Buffer {
  const long = 'x'.repeat(70_000);
  const many = Array.from({ length: 300 }, (_, i) => s(`k${i}`, `v${i}`));
  const spans = [
    oddSpan(0, {
      traceState: 'a=b',
      attributes: [
        s('http.route', '/users/:id'),
        s('http.method', 'GET'),
        { key: 'i', value: { intValue: 42 } },
        { key: 'big', value: { intValue: '9223372036854775807' } },
        { key: 'neg', value: { intValue: '-9223372036854775808' } },
        { key: 'small.neg', value: { intValue: -3 } },
        { key: 'd', value: { doubleValue: 2.5 } },
        { key: 'nan', value: { doubleValue: NaN } },
        { key: 'inf', value: { doubleValue: -Infinity } },
        { key: 'exp', value: { doubleValue: 1e300 } },
        { key: 'b', value: { boolValue: false } },
        {
          key: 'arr',
          value: {
            arrayValue: {
              values: [
                { stringValue: 'a' },
                { intValue: 1 },
                { doubleValue: 0.1 },
                { boolValue: true },
                { arrayValue: { values: [{ stringValue: 'in' }] } },
                { kvlistValue: { values: [s('z', '1')] } },
                {},
              ],
            },
          },
        },
        { key: 'empty.arr', value: { arrayValue: { values: [] } } },
        {
          key: 'kv',
          value: { kvlistValue: { values: [{ key: 'N-ested', value: { intValue: 5 } }, s('q"uote', 'v\\al')] } },
        },
        { key: 'bytes', value: { bytesValue: Buffer.from([1, 2]) } },
        { key: 'none', value: {} },
        { key: 'novalue' },
        s('', 'empty key'),
        s('__proto__', 'proto'),
        s('HTTP-Status/Code', 'camel'),
        s('camelCaseKey', 'camel 2'),
        s('with space', 'sp'),
        s('Ünïcode', 'ü'),
        s('5', 'integer-like key'),
        s('0', 'another'),
        s('tabs', 'a\tb\nc\rd\0e\\f\'g"h'),
        s('unicode', 'é 日本 😀 \u2028'),
        s('ctrl', '\u0001\u001f'),
        s('_hidden', 'underscore'),
        s('service.name', 'overridden'),
      ],
      status: { code: 2, message: 'boom\tbad' },
    }),
    oddSpan(1, {
      name: 'n'.repeat(120),
      attributes: [
        s('db.system', 'postgresql'),
        s('db.statement', "SELECT * FROM t WHERE a = 'x\\y' AND b = 42 AND c IN (1, 2, 3)"),
        s('db.name', 'shop'),
        s('display.name', 'custom display'),
      ],
      events: [
        {
          timeUnixNano: '0',
          name: 'exception',
          attributes: [s('exception.type', 'E'), s('exception.message', 'failed for user 12345 at 10.0.0.1')],
        },
        { timeUnixNano: String(T0 + 5n), name: 'error', attributes: [s('exception.message', 'x')] },
        { timeUnixNano: String(T0 + 6n), name: '', attributes: [] },
        {
          timeUnixNano: String(T0 + 7n),
          name: 'log',
          attributes: [s('level', 'warning'), s('log.message', 'retrying 3 times after 200ms')],
        },
        { timeUnixNano: String(T0 + 8n), name: 'custom', attributes: [s('log.message', 'WARN disk 91% full')] },
      ],
    }),
    oddSpan(2, {
      attributes: [s('db.system', 'redis'), s('db.statement', 'HGETALL session:abc123')],
      links: [
        { traceId: hex('11'.repeat(16)), spanId: hex('22'.repeat(8)), traceState: 'x', attributes: [s('l', 'v')] },
        { traceId: hex('33'.repeat(16)), spanId: hex('44'.repeat(8)), attributes: [] },
      ],
    }),
    oddSpan(3, { attributes: [s('db.system', 'mongodb'), s('db.statement', '{"find":"users","filter":{"id":7}}')] }),
    oddSpan(4, {
      kind: 4,
      attributes: [s('messaging.system', 'kafka'), s('messaging.operation', 'publish')],
      events: [{ timeUnixNano: String(T0 + 9n), name: 'message', attributes: [s('message.type', 'SENT')] }],
    }),
    oddSpan(5, { kind: 2, attributes: [s('rpc.system', 'grpc'), s('rpc.service', 'S'), s('rpc.method', 'M')] }),
    oddSpan(6, { attributes: many }),
    oddSpan(7, { attributes: [s('long', long), s('statement', 'SELECT 1'), s('service_name', 'alias')] }),
    oddSpan(8, { kind: -1, attributes: [s('code.function', 'f')] }),
    oddSpan(9, { endTimeUnixNano: String(T0 - 1n) }),
    oddSpan(10, { startTimeUnixNano: '0' }),
    oddSpan(11, { startTimeUnixNano: '9223372036854775807' }),
    oddSpan(12, { spanId: hex('01') }),
    oddSpan(13, { traceId: Buffer.alloc(16) }),
    oddSpan(14, { name: 'é'.repeat(50), attributes: [s('display.name', '日'.repeat(100))] }),
    oddSpan(15, { status: { code: 1 }, attributes: [s('url.path', '/x'), s('deployment.environment', 'prod')] }),
  ];
  const req = {
    resourceSpans: [
      {
        resource: {
          attributes: [
            s('service.name', 'odd'),
            s('host.name', 'h1'),
            s('deployment.environment', 'staging'),
            { key: 'pid', value: { intValue: 1234 } },
            s('process.command_args', 'a\tb'),
          ],
        },
        scopeSpans: [
          { scope: { name: 'lib', version: '1.0', attributes: [s('scope.attr', 'v')] }, spans: spans.slice(0, 8) },
          { spans: spans.slice(8, 12) },
        ],
      },
      { scopeSpans: [{ scope: { name: 'bare' }, spans: spans.slice(12) }] },
      { resource: { attributes: [s('service_name', 'aliased')] }, scopeSpans: [] },
    ],
  };
  return Buffer.from(ExportTraceServiceRequest.encode(req as never).finish());
}

/** The prepare worker's steps for OTLP traces, without staging: what the store is handed. */
export function encodedTraces(body: Buffer, format: 'protobuf' | 'json', options: ProjectOptions) {
  const produced = storable(produceOtlpTraces(body, format, options));
  const encoded = encodeSpans(produced.rows);
  return { ...encoded, rejected: produced.rejected, rejectedMessage: produced.rejectedMessage };
}

/** One digest over the encoded output of every body under every option set. */
export function outputDigest(bodies: readonly Buffer[], format: 'protobuf' | 'json'): string {
  const h = createHash('sha256');
  for (const options of OPTION_SETS) {
    for (const body of bodies) {
      const e = encodedTraces(body, format, options);
      h.update(`${e.rows} ${e.rejected} ${e.rejectedMessage}\n`);
      h.update(e.index);
      h.update(e.data);
    }
  }
  return h.digest('hex');
}
