import protobuf from 'protobufjs';
import { compressSync } from 'snappy';
import { describe, expect, it } from 'vitest';
import { linesText } from '../../storage/telemetry';
import { seriesHash } from './metricSeries';
import { promUndo, PromWriteState } from './promRemoteWrite';
import { createPreparePool } from '../../ingest/preparePool';
import { PREPARE_PROM_JOB, preparePromWrite } from './promWriteWire';

// prometheus.WriteRequest (remote write 1.0), to encode what the tests send.
const root = protobuf.Root.fromJSON({
  nested: {
    WriteRequest: {
      fields: {
        timeseries: { rule: 'repeated', type: 'TimeSeries', id: 1 },
        metadata: { rule: 'repeated', type: 'MetricMetadata', id: 3 },
      },
    },
    TimeSeries: {
      fields: {
        labels: { rule: 'repeated', type: 'Label', id: 1 },
        samples: { rule: 'repeated', type: 'Sample', id: 2 },
        histograms: { rule: 'repeated', type: 'Histogram', id: 4 },
      },
    },
    Label: { fields: { name: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } } },
    Sample: { fields: { value: { type: 'double', id: 1 }, timestamp: { type: 'int64', id: 2 } } },
    Histogram: { fields: { timestamp: { type: 'int64', id: 15 } } },
    MetricMetadata: {
      fields: {
        type: { type: 'int32', id: 1 },
        metricFamilyName: { type: 'string', id: 2 },
        help: { type: 'string', id: 4 },
        unit: { type: 'string', id: 5 },
      },
    },
  },
});
const WriteRequest = root.lookupType('WriteRequest');
const encode = (req: object) => Buffer.from(WriteRequest.encode(WriteRequest.fromObject(req)).finish());

const series = (labels: Record<string, string>, samples: [number, number][]) => ({
  labels: Object.entries(labels).map(([name, value]) => ({ name, value })),
  samples: samples.map(([value, timestamp]) => ({ value, timestamp })),
});
const T = 1_767_000_000_000;

/** A server's remote write state: each request decoded as a worker does, then stepped and made rows. */
function server(seriesMax?: number) {
  const prom = new PromWriteState(0n, seriesMax);
  return (req: object, refused = false) => {
    const decode = (full: boolean) => {
      const body = compressSync(encode(req));
      const cols = preparePromWrite({ body, projectId: 1, dropAttrs: [], maxBytes: 1 << 20, full });
      if (!cols.ok) throw new Error(cols.message);
      return cols;
    };
    let cols = decode(false);
    // A worker sends a series' text once (here: one worker for every state of the file).
    if (!prom.knows(cols)) cols = decode(true);
    const plan = prom.plan(cols, 1);
    const undo = promUndo();
    const out = prom.rows(cols, plan, undo);
    if (refused) prom.restore(undo);
    // The rows' text, as a store that inserts text and a start replaying the journal make it.
    const text = out.chunks.map((c) => linesText(c.lines!)).join('');
    const rows = text
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t'));
    return { cols, plan, rows };
  };
}
/** [metric, instrument, sum, gauge] of each row. */
const brief = (rows: string[][]) => rows.map((r) => [r[1], r[4], Number(r[7]), Number(r[9])]);

describe('Prometheus remote write', () => {
  it('refuses bodies that are not a snappy WriteRequest, or too large inflated', () => {
    const refused = (body: Buffer, max = 1 << 20) => {
      const r = preparePromWrite({ body, projectId: 1, dropAttrs: [], maxBytes: max });
      return r.ok ? 'accepted' : `${r.code}: ${r.message}`;
    };
    expect(refused(Buffer.from('not snappy at all'))).toMatch(/invalid_remote_write: body is not snappy/);
    expect(refused(compressSync(Buffer.from([0xff, 0xff, 0xff])))).toMatch(/WriteRequest/);
    expect(refused(compressSync(Buffer.alloc(100)), 10)).toMatch(/exceeds 10 bytes/);
    // a block stating 4 GiB (5 bytes of length, then nothing): refused by its stated length, unread
    expect(refused(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f, 0, 0]))).toMatch(/exceeds 1048576 bytes/);
  });

  it('stores counters (typed or *_total) as deltas and the rest as gauges, labels as the OTLP mapping would', () => {
    const send = server();
    const req = (k: number) => ({
      metadata: k === 0 ? [{ type: 1, metricFamilyName: 'jobs_done', help: 'Jobs done', unit: 's' }] : [],
      timeseries: [
        series({ __name__: 'http_requests_total', job: 'api', code: '200' }, [[10 * (k + 1), T + k * 15_000]]),
        series({ __name__: 'jobs_done', job: 'api' }, [[3 * (k + 1), T + k * 15_000]]),
        series({ __name__: 'temperature', room: 'a' }, [[21.5 + k, T + k * 15_000]]),
      ],
    });
    const first = send(req(0));
    expect(first.plan.metrics).toEqual([
      { name: 'http_requests_total', description: '', unit: '', instrument: 'counter', attrKeys: ['code', 'job'] },
      { name: 'jobs_done', description: 'Jobs done', unit: 'seconds', instrument: 'counter', attrKeys: ['job'] },
      { name: 'temperature', description: '', unit: '', instrument: 'gauge', attrKeys: ['room'] },
    ]);
    // A counter's first sample is its baseline.
    expect(brief(first.rows)).toEqual([['temperature', 'gauge', 21.5, 21.5]]);
    const second = send(req(1));
    expect(brief(second.rows)).toEqual([
      ['http_requests_total', 'counter', 10, 0],
      ['jobs_done', 'counter', 3, 0],
      ['temperature', 'gauge', 22.5, 22.5],
    ]);
    const counter = second.rows[0];
    expect(counter[3]).toBe(seriesHash(['code', 'job'], ['200', 'api']));
    expect(counter.slice(11)).toEqual(["['code','job']", "['200','api']"]);
    expect(Number(counter[2])).toBe(Math.floor((T + 15_000) / 60_000) * 60);
  });

  it('asks the worker again for the text of a series it sent to a state that no longer holds it', () => {
    const req = { timeseries: [series({ __name__: 'resent_total', job: 'a' }, [[1, T]])] };
    const body = compressSync(encode(req));
    const cols = preparePromWrite({ body, projectId: 1, dropAttrs: [], maxBytes: 1 << 20 });
    const again = preparePromWrite({ body, projectId: 1, dropAttrs: [], maxBytes: 1 << 20 });
    if (!cols.ok || !again.ok) throw new Error('refused');
    expect(cols.dict).toContain('resent_total');
    expect(again.dict).toBe('');
    expect(new PromWriteState(0n).knows(again)).toBe(false);
    const state = new PromWriteState(0n);
    expect(state.knows(cols)).toBe(true);
    state.plan(cols, 1);
    expect(state.knows(again)).toBe(true);
  });

  it('types histogram and summary series as counters (buckets, _sum, _count) and gauges (quantiles)', () => {
    const { plan } = server()({
      timeseries: [
        series({ __name__: 'latency_seconds_bucket', le: '0.1' }, [[4, T]]),
        series({ __name__: 'latency_seconds_bucket', le: '+Inf' }, [[5, T]]),
        series({ __name__: 'latency_seconds_sum' }, [[0.7, T]]),
        series({ __name__: 'latency_seconds_count' }, [[5, T]]),
        series({ __name__: 'rpc_seconds', quantile: '0.9' }, [[0.2, T]]),
        series({ __name__: 'rpc_seconds_count' }, [[9, T]]),
        series({ __name__: 'queue_count' }, [[7, T]]),
      ],
    });
    expect(Object.fromEntries(plan.metrics.map((m) => [m.name, m.instrument]))).toEqual({
      latency_seconds_bucket: 'counter',
      latency_seconds_sum: 'counter',
      latency_seconds_count: 'counter',
      rpc_seconds: 'gauge',
      rpc_seconds_count: 'counter',
      // An untyped *_count without buckets or quantiles beside it is a gauge.
      queue_count: 'gauge',
    });
  });

  it('counts a counter restart from zero, and a refused request again in full', () => {
    const send = server();
    const sum = (v: number, k: number, refused = false) =>
      brief(send({ timeseries: [series({ __name__: 'c_total' }, [[v, T + k * 15_000]])] }, refused).rows)[0]?.[2];
    expect([sum(100, 0), sum(150, 1)]).toEqual([undefined, 50]);
    // The restart's request is refused (its commit failed): its retry counts the same.
    expect(sum(5, 2, true)).toBe(5);
    expect([sum(5, 2), sum(9, 3)]).toEqual([5, 4]);
    // An older sample than the last is dropped.
    expect(sum(20, 1)).toBeUndefined();
  });

  it("keeps a counter's state when its entry moves between generations, and restores it there", () => {
    const send = server(4); // two entries a generation
    const sum = (name: string, v: number, k: number, refused = false) =>
      brief(send({ timeseries: [series({ __name__: name }, [[v, T + k * 15_000]])] }, refused).rows)[0]?.[2];
    expect([sum('a_total', 100, 0), sum('b_total', 10, 0)]).toEqual([undefined, undefined]);
    // c starts a generation: a and b age; a's next sample finds it (moved young) with its state.
    expect([sum('c_total', 1, 0), sum('a_total', 130, 1)]).toEqual([undefined, 30]);
    // d starts another: b goes, a ages again and moves again, refused there and restored there.
    expect([sum('d_total', 5, 0), sum('a_total', 150, 2, true), sum('a_total', 150, 2)]).toEqual([undefined, 20, 20]);
    // b's state went with its generation: its next sample is a first one again (a baseline).
    expect([sum('b_total', 20, 1), sum('b_total', 25, 2)]).toEqual([undefined, 5]);
  });

  it('drops staleness markers and refuses series without a name or with native histograms', () => {
    const stale = new DataView(new ArrayBuffer(8));
    stale.setUint32(0, 0x7ff00000);
    stale.setUint32(4, 2);
    const { cols, rows } = server()({
      timeseries: [
        series({ __name__: 'g' }, [
          [stale.getFloat64(0), T],
          [2, T + 1000],
        ]),
        series({ job: 'no-name' }, [[1, T]]),
        { labels: [{ name: '__name__', value: 'h' }], samples: [], histograms: [{ timestamp: T }] },
      ],
    });
    expect(brief(rows)).toEqual([['g', 'gauge', 2, 2]]);
    expect(cols.rejected).toBe(2);
    expect(cols.errors.join('; ')).toMatch(/__name__.*native histograms|native histograms.*__name__/);
  });

  it('moves a body to a worker and back with its columns, so a second decode with every series text can read it', async () => {
    const pool = createPreparePool({ threads: 1, maxBytes: 1 << 20, maxRequests: 4 });
    try {
      const raw = compressSync(encode({ timeseries: [series({ __name__: 'moved_total', job: 'a' }, [[1, T]])] }));
      const body = new Uint8Array(raw.length);
      body.set(raw);
      const first = await pool.runJob(PREPARE_PROM_JOB, { body, projectId: 7, dropAttrs: [], maxBytes: 1 << 20 });
      if (!first.ok) throw new Error(first.message);
      expect(body.byteLength).toBe(0); // moved, not copied
      expect(Buffer.from(first.body!).equals(raw)).toBe(true);
      expect(first.dict).toContain('moved_total');
      // The worker sent the series' text once; asked again with `full` it sends it again.
      const again = await pool.runJob(PREPARE_PROM_JOB, {
        body: first.body!,
        projectId: 7,
        dropAttrs: [],
        maxBytes: 1 << 20,
      });
      expect(again.ok && again.dict).toBe('');
      const full = await pool.runJob(PREPARE_PROM_JOB, {
        body: again.ok ? again.body! : body,
        projectId: 7,
        dropAttrs: [],
        maxBytes: 1 << 20,
        full: true,
      });
      expect(full.ok && full.dict).toBe(first.dict);
      expect(full.ok && [...full.values]).toEqual([1]);
    } finally {
      await pool.close();
    }
  });

  it('knows a series whose labels come apart (between its samples) as the same series', () => {
    const ts = (m: object) => Buffer.from(root.lookupType('TimeSeries').encode(m).finish());
    const [name, job] = [
      { name: '__name__', value: 'apart_total' },
      { name: 'job', value: 'a' },
    ];
    // Fields of one message in any order: labels, a sample, a label (concatenated parts merge).
    const apart = Buffer.concat([
      ts({ labels: [name] }),
      ts({ samples: [{ value: 1, timestamp: T }] }),
      ts({ labels: [job] }),
    ]);
    const request = Buffer.concat([
      Buffer.from([0x0a]),
      Buffer.from(protobuf.Writer.create().uint32(apart.length).finish()),
      apart,
    ]);
    const decode = (body: Buffer) => {
      const cols = preparePromWrite({
        body: compressSync(body),
        projectId: 9,
        dropAttrs: [],
        maxBytes: 1 << 20,
        full: true,
      });
      if (!cols.ok) throw new Error(cols.message);
      return { ids: [...cols.ids], dict: cols.dict, values: [...cols.values] };
    };
    const split = decode(request);
    const together = decode(encode({ timeseries: [series({ __name__: 'apart_total', job: 'a' }, [[2, T]])] }));
    expect(split.values).toEqual([1]);
    expect(split.ids).toEqual(together.ids);
    expect(split.dict).toBe(together.dict);
    expect(split.dict).toContain('apart_total');
  });

  it('reads sample times as the int64 they are: refuses none, negative, far and cut ones', () => {
    const decode = (body: Buffer) =>
      preparePromWrite({ body: compressSync(body), projectId: 9, dropAttrs: [], maxBytes: 1 << 20 });
    const at = (...times: number[]) =>
      decode(
        encode({
          timeseries: [
            series(
              { __name__: 'g' },
              times.map((t) => [1, t]),
            ),
          ],
        }),
      );
    const ok = at(T, 0, -1, 2 ** 53 + 2, Date.UTC(2106, 0, 1));
    if (!ok.ok) throw new Error(ok.message);
    expect([...ok.ms]).toEqual([T]);
    expect(ok.rejected).toBe(4);
    expect(ok.errors.join('; ')).toMatch(/without a time.*outside 2001-09-09 to 2106-01-01/);
    // A body cut inside a timestamp's varint is not a WriteRequest.
    const whole = encode({ timeseries: [series({ __name__: 'g' }, [[1, T]])] });
    const cut = Buffer.from(whole);
    cut[cut.length - 1] |= 0x80; // the varint's last byte says more follow, and none do
    const refused = decode(cut);
    expect(refused.ok ? '' : refused.message).toMatch(/not a Prometheus remote write WriteRequest/);
  });
});
