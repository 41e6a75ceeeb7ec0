import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { OtlpDecodeError } from '../../ingest';
import type { RowBase, RowValues, StatefulStep } from './datapointRows';
import { normalizeMetrics } from './normalizeMetrics';
import { decodeMetricsProto } from './otlpMetricsProto';
import { decodeMetricsWire } from './otlpMetricsWire';

/**
 * The wire reader against protobufjs (decodeMetricsProto): the same bodies, through the same
 * mapping, give the same rows, steps, catalogue and refusals.
 */
const require = createRequire(import.meta.url);
const { ExportMetricsServiceRequest } = (
  require('@opentelemetry/otlp-proto-exporter-base/build/src/generated/root.js') as {
    opentelemetry: {
      proto: {
        collector: {
          metrics: {
            v1: {
              ExportMetricsServiceRequest: {
                fromObject(o: unknown): unknown;
                encode(m: unknown): { finish(): Uint8Array };
              };
            };
          };
        };
      };
    };
  }
).opentelemetry.proto.collector.metrics.v1;

const encode = (o: unknown) => ExportMetricsServiceRequest.encode(ExportMetricsServiceRequest.fromObject(o)).finish();

const T = 1_764_000_000_000_000_000n;
const t = (s: number) => String(T + BigInt(s) * 1_000_000_000n);
const str = (key: string, v: string) => ({ key, value: { stringValue: v } });
const attrs = [
  str('route', '/a'),
  { key: 'big', value: { intValue: '9007199254740993' } },
  { key: 'neg', value: { intValue: '-42' } },
  { key: 'ok', value: { boolValue: true } },
  { key: 'ratio', value: { doubleValue: 0.25 } },
  { key: 'list', value: { arrayValue: { values: [{ intValue: 7 }, { stringValue: 'x' }] } } },
  { key: 'map', value: { kvlistValue: { values: [str('k', 'v'), { key: 'n', value: { intValue: 3 } }] } } },
  { key: 'raw', value: { bytesValue: Buffer.from('hi') } },
];

/** Every kind of metric and point, cumulative and delta, with odd values. */
const REQUEST = {
  resourceMetrics: [
    {
      resource: { attributes: [str('service.name', 'shop'), str('host.name', 'h1')] },
      scopeMetrics: [
        {
          scope: { name: 'lib', version: '1', attributes: [str('scope.attr', 's')] },
          metrics: [
            {
              name: 'temp',
              unit: 'Cel',
              description: 'a gauge',
              gauge: {
                dataPoints: [
                  { timeUnixNano: t(0), asDouble: 21.5, attributes: attrs },
                  { timeUnixNano: t(60), asInt: '-7', attributes: [str('room', 'b')] },
                  { timeUnixNano: t(120), asDouble: 1, flags: 1 },
                ],
              },
            },
            {
              name: 'requests',
              unit: '{request}',
              sum: {
                aggregationTemporality: 2,
                isMonotonic: true,
                dataPoints: [0, 60, 120].map((s, i) => ({
                  startTimeUnixNano: t(-60),
                  timeUnixNano: t(s),
                  asInt: String(10 * (i + 1)),
                  attributes: [str('route', '/c')],
                })),
              },
            },
            {
              name: 'queue',
              sum: {
                aggregationTemporality: 1,
                isMonotonic: false,
                dataPoints: [{ startTimeUnixNano: t(0), timeUnixNano: t(30), asDouble: -3.5 }],
              },
            },
            {
              name: 'latency',
              unit: 'ms',
              histogram: {
                aggregationTemporality: 1,
                dataPoints: [
                  {
                    startTimeUnixNano: t(0),
                    timeUnixNano: t(60),
                    count: '6',
                    sum: 123.5,
                    min: 0.5,
                    max: 90,
                    bucketCounts: ['1', '2', '0', '3'],
                    explicitBounds: [1, 10, 50],
                    attributes: [str('route', '/a')],
                  },
                  { startTimeUnixNano: t(60), timeUnixNano: t(120), count: '0', bucketCounts: [], explicitBounds: [] },
                ],
              },
            },
            {
              name: 'latency.cum',
              histogram: {
                aggregationTemporality: 2,
                dataPoints: [60, 120].map((s, i) => ({
                  startTimeUnixNano: t(0),
                  timeUnixNano: t(s),
                  count: String(4 * (i + 1)),
                  sum: 10 * (i + 1),
                  bucketCounts: [String(i + 1), String(3 * (i + 1))],
                  explicitBounds: [5],
                })),
              },
            },
            {
              name: 'size',
              exponentialHistogram: {
                aggregationTemporality: 1,
                dataPoints: [
                  {
                    startTimeUnixNano: t(0),
                    timeUnixNano: t(60),
                    count: '9',
                    sum: 99,
                    scale: -2,
                    zeroCount: '1',
                    positive: { offset: -3, bucketCounts: ['2', '3'] },
                    negative: { offset: 1, bucketCounts: ['3'] },
                    min: -40,
                    max: 70,
                  },
                ],
              },
            },
            {
              name: 'rpc.duration',
              summary: {
                dataPoints: [
                  {
                    startTimeUnixNano: t(0),
                    timeUnixNano: t(60),
                    count: '5',
                    sum: 17,
                    quantileValues: [
                      { quantile: 0, value: 1 },
                      { quantile: 0.5, value: 3 },
                      { quantile: 1, value: 8 },
                    ],
                  },
                ],
              },
            },
            { name: 'no.data' },
          ],
        },
      ],
    },
    { scopeMetrics: [{ metrics: [{ name: 'bare', gauge: { dataPoints: [{ timeUnixNano: t(5), asDouble: 2 }] } }] }] },
  ],
};

function mapped(decode: (b: Uint8Array) => unknown, body: Uint8Array) {
  const rows: [RowBase, RowValues][] = [];
  const steps: [RowBase, StatefulStep][] = [];
  const out = normalizeMetrics(decode(body) as Parameters<typeof normalizeMetrics>[0], 3, {
    row: (b, v) => rows.push([b, v]),
    stateful: (b, s) => steps.push([b, s]),
  });
  return { rows, steps, out };
}

describe('OTLP metrics wire reader', () => {
  it('gives what protobufjs gives, through the mapping, for every kind of metric', () => {
    const body = encode(REQUEST);
    const wire = mapped(decodeMetricsWire, body);
    expect(wire).toEqual(mapped(decodeMetricsProto, body));
    expect(wire.rows.length + wire.steps.length).toBe(13); // all but the point flagged "no recorded value"
    expect(wire.out.metrics.map((m) => m.name)).toEqual([
      'temp',
      'requests',
      'queue',
      'latency',
      'latency.cum',
      'size',
      'rpc.duration',
      'bare',
    ]);
  });

  it('reads repeated numbers packed or one per field, as protobufjs does', () => {
    // latency's histogram point with bucket_counts (6) and explicit_bounds (7) written unpacked.
    const fixed64 = (field: number, v: bigint) => {
      const b = Buffer.alloc(9);
      b[0] = (field << 3) | 1;
      b.writeBigUInt64LE(v, 1);
      return b;
    };
    const double = (field: number, v: number) => {
      const b = Buffer.alloc(9);
      b[0] = (field << 3) | 1;
      b.writeDoubleLE(v, 1);
      return b;
    };
    const len = (field: number, inner: Buffer) => Buffer.concat([Buffer.from([(field << 3) | 2, inner.length]), inner]);
    const point = Buffer.concat([fixed64(3, T), fixed64(4, 3n), fixed64(6, 1n), fixed64(6, 2n), double(7, 5)]);
    const histogram = Buffer.concat([len(1, point), Buffer.from([(2 << 3) | 0, 1])]);
    const metric = Buffer.concat([len(1, Buffer.from('h')), len(9, histogram)]);
    const body = len(1, len(2, len(2, metric)));
    const wire = mapped(decodeMetricsWire, body);
    expect(wire).toEqual(mapped(decodeMetricsProto, body));
    expect(wire.rows).toHaveLength(1);
  });

  it('refuses malformed bytes with an OtlpDecodeError, as protobufjs does', () => {
    const body = encode(REQUEST);
    for (const cut of [1, 7, 50, body.length - 3]) {
      const part = body.subarray(0, cut);
      expect(() => decodeMetricsProto(part)).toThrow(OtlpDecodeError);
      expect(() => decodeMetricsWire(part)).toThrow(OtlpDecodeError);
    }
    expect(() => decodeMetricsWire(Buffer.from([0x0f]))).toThrow(/not a valid OTLP ExportMetricsServiceRequest/);
  });

  it('throws nothing but OtlpDecodeError on mutated bytes', () => {
    const body = encode(REQUEST);
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let i = 0; i < 2000; i++) {
      const b = Buffer.from(body);
      for (let k = 0; k < 1 + rand(4); k++) b[rand(b.length)] = rand(256);
      try {
        decodeMetricsWire(b);
      } catch (err) {
        expect(err).toBeInstanceOf(OtlpDecodeError);
      }
    }
  });
});
