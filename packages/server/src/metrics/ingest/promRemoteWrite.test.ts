import { compressSync } from 'snappy';
import { describe, expect, it } from 'vitest';
import { encodeWriteRequest, type PromSeries } from '../../../../../bench/metrics/remoteWrite';
import { OtlpDecodeError } from '../../ingest/otlp';
import { decodePromWrite, PromWriteMapper, type PromWriteRequest } from './promRemoteWrite';
import type { PbMetric } from './otlpMetricsProto';

const series = (labels: Record<string, string>, samples: [number, number][]) => ({
  labels: Object.entries(labels).map(([name, value]) => ({ name, value })),
  samples: samples.map(([value, timestamp]) => ({ value, timestamp })),
});
const metricsOf = (m: ReturnType<PromWriteMapper['map']>): PbMetric[] =>
  m.request.resourceMetrics![0].scopeMetrics![0].metrics!;
const byName = (m: ReturnType<PromWriteMapper['map']>, name: string) => metricsOf(m).find((x) => x.name === name)!;
const T = 1_767_000_000_000;

describe('Prometheus remote write mapping', () => {
  it('decodes a snappy WriteRequest and refuses bodies that are not one', async () => {
    const s: PromSeries = {
      labels: [
        ['__name__', 'up'],
        ['job', 'api'],
      ],
      samples: [{ value: 1, timestampMs: T }],
    };
    const req = await decodePromWrite(compressSync(Buffer.from(encodeWriteRequest([s]))), 1 << 20);
    expect(req.timeseries?.[0].labels?.map((l) => l.name)).toEqual(['__name__', 'job']);
    await expect(decodePromWrite(Buffer.from('not snappy at all'), 1 << 20)).rejects.toBeInstanceOf(OtlpDecodeError);
    await expect(decodePromWrite(compressSync(Buffer.from([0xff, 0xff, 0xff])), 1 << 20)).rejects.toThrow(
      /WriteRequest/,
    );
    await expect(decodePromWrite(compressSync(Buffer.alloc(100)), 10)).rejects.toThrow(/exceeds 10 bytes/);
    // a block stating 4 GiB (5 bytes of length, then nothing): refused by its stated length, unread
    await expect(decodePromWrite(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f, 0, 0]), 1 << 20)).rejects.toThrow(
      /exceeds 1048576 bytes/,
    );
  });

  it('maps counters (typed or *_total) to cumulative sums and the rest to gauges, labels to attributes', () => {
    const m = new PromWriteMapper().map(
      {
        metadata: [{ type: 1, metricFamilyName: 'jobs_done', help: 'Jobs done', unit: '' }],
        timeseries: [
          series({ __name__: 'http_requests_total', code: '200', job: 'api' }, [[10, T]]),
          series({ __name__: 'jobs_done', job: 'api' }, [[3, T]]),
          series({ __name__: 'temperature', room: 'a' }, [[21.5, T]]),
        ],
      },
      1,
    );
    expect(byName(m, 'http_requests_total').sum).toMatchObject({ isMonotonic: true, aggregationTemporality: 2 });
    expect(byName(m, 'http_requests_total').sum!.dataPoints![0]).toMatchObject({
      asDouble: 10,
      timeUnixNano: (BigInt(T) * 1_000_000n).toString(),
      attributes: [
        { key: 'code', value: { stringValue: '200' } },
        { key: 'job', value: { stringValue: 'api' } },
      ],
    });
    expect(byName(m, 'jobs_done')).toMatchObject({ description: 'Jobs done', sum: { isMonotonic: true } });
    expect(byName(m, 'temperature').gauge!.dataPoints![0].asDouble).toBe(21.5);
    expect(m.rejected).toBe(0);
  });

  it('keeps histogram and summary series as counters (buckets, _sum, _count) and gauges (quantiles)', () => {
    const m = new PromWriteMapper().map(
      {
        timeseries: [
          series({ __name__: 'latency_seconds_bucket', le: '0.1' }, [[4, T]]),
          series({ __name__: 'latency_seconds_bucket', le: '+Inf' }, [[5, T]]),
          series({ __name__: 'latency_seconds_sum' }, [[0.7, T]]),
          series({ __name__: 'latency_seconds_count' }, [[5, T]]),
          series({ __name__: 'rpc_seconds', quantile: '0.9' }, [[0.2, T]]),
          series({ __name__: 'rpc_seconds_count' }, [[9, T]]),
          series({ __name__: 'queue_count' }, [[7, T]]),
        ],
      },
      1,
    );
    for (const n of ['latency_seconds_bucket', 'latency_seconds_sum', 'latency_seconds_count', 'rpc_seconds_count'])
      expect(byName(m, n).sum, n).toBeTruthy();
    expect(byName(m, 'rpc_seconds').gauge).toBeTruthy();
    // An untyped *_count without buckets or quantiles beside it is a gauge.
    expect(byName(m, 'queue_count').gauge).toBeTruthy();
  });

  it('gives a counter a new start time when it restarts, so the restart counts from zero', () => {
    const mapper = new PromWriteMapper();
    const start = (v: number, t: number) =>
      byName(mapper.map({ timeseries: [series({ __name__: 'c_total' }, [[v, t]])] }, 1), 'c_total').sum!.dataPoints![0]
        .startTimeUnixNano;
    expect(start(100, T)).toBe('0');
    expect(start(150, T + 15_000)).toBe('0');
    const restarted = start(5, T + 30_000);
    expect(restarted).toBe(((BigInt(T + 30_000) - 1n) * 1_000_000n).toString());
    expect(start(9, T + 45_000)).toBe(restarted);
  });

  it('drops staleness markers and refuses series without a name or with native histograms', () => {
    const stale = new DataView(new ArrayBuffer(8));
    stale.setUint32(0, 0x7ff00000);
    stale.setUint32(4, 2);
    const req: PromWriteRequest = {
      timeseries: [
        series({ __name__: 'g' }, [
          [stale.getFloat64(0), T],
          [2, T + 1000],
        ]),
        series({ job: 'no-name' }, [[1, T]]),
        { labels: [{ name: '__name__', value: 'h' }], samples: [], histograms: [{}] },
      ],
    };
    const m = new PromWriteMapper().map(req, 1);
    expect(byName(m, 'g').gauge!.dataPoints!.map((p) => p.asDouble)).toEqual([2]);
    expect(m.rejected).toBe(2);
    expect(m.errors.join('; ')).toMatch(/__name__.*native histograms|native histograms.*__name__/);
  });
});
