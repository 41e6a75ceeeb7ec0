import { describe, expect, it } from 'vitest';
import { OtlpDecodeError } from '../../ingest';
import { decodeMetricsJson } from './otlpMetricsProto';

/** OTLP/JSON metrics in either spelling of the proto3 JSON mapping. */
const camel = {
  resourceMetrics: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'shop' } }] },
      scopeMetrics: [
        {
          metrics: [
            {
              name: 'queue.depth',
              gauge: {
                dataPoints: [
                  {
                    timeUnixNano: '1795700000000000000',
                    asDouble: 4.5,
                    attributes: [{ key: 'queue_name', value: { stringValue: 'emails' } }],
                  },
                ],
              },
            },
          ],
        },
      ],
    },
  ],
};
const snake = {
  resource_metrics: [
    {
      resource: { attributes: [{ key: 'service.name', value: { string_value: 'shop' } }] },
      scope_metrics: [
        {
          metrics: [
            {
              name: 'queue.depth',
              gauge: {
                data_points: [
                  {
                    time_unix_nano: '1795700000000000000',
                    as_double: 4.5,
                    attributes: [{ key: 'queue_name', value: { string_value: 'emails' } }],
                  },
                ],
              },
            },
          ],
        },
      ],
    },
  ],
};

describe('decodeMetricsJson', () => {
  it('reads proto field names (snake_case) as it reads lowerCamelCase, attribute keys untouched', () => {
    const a = decodeMetricsJson(snake);
    expect(JSON.parse(JSON.stringify(a))).toEqual(JSON.parse(JSON.stringify(decodeMetricsJson(camel))));
    const point = a.resourceMetrics?.[0].scopeMetrics?.[0].metrics?.[0].gauge?.dataPoints?.[0];
    expect(point?.asDouble).toBe(4.5);
    expect(point?.attributes?.[0].key).toBe('queue_name');
  });

  it('refuses a body without resourceMetrics that holds other keys, and takes an empty one', () => {
    expect(() => decodeMetricsJson({ resourceMetric: [] })).toThrow(OtlpDecodeError);
    expect(() => decodeMetricsJson({ resourceMetric: [] })).toThrow('expected resourceMetrics, got "resourceMetric"');
    expect(decodeMetricsJson({}).resourceMetrics).toEqual([]);
  });
});
