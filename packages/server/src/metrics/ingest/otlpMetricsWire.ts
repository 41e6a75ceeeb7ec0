import {
  OtlpDecodeError,
  readKeyValue,
  WireError,
  WireReader,
  WIRE_FIXED64,
  WIRE_LEN,
  WIRE_VARINT,
  type OtlpKeyValue,
} from '../../ingest';
import type {
  PbBuckets,
  PbExpHistogramDataPoint,
  PbHistogramDataPoint,
  PbMetric,
  PbMetricsRequest,
  PbNumberDataPoint,
  PbSummaryDataPoint,
} from './otlpMetricsProto';

/**
 * OTLP/protobuf metrics (HTTP and gRPC) -> PbMetricsRequest, read field by field from the body's
 * bytes (the trace reader's wire format, ingest/otlp/protoWire.ts) instead of through protobufjs'
 * message tree: what protobufjs' decode gave, with 64-bit integers as bigint (times, counts) or
 * number when exact (attribute ints), and only the fields normalizeMetrics reads. Repeated scalars
 * are read packed or not, as protobufjs reads them. Malformed bytes throw OtlpDecodeError.
 */
export function decodeMetricsWire(buf: Uint8Array): PbMetricsRequest {
  const r = new WireReader(buf);
  try {
    return { resourceMetrics: repeated(r, r.buf.length, 1, resourceMetrics) };
  } catch (err) {
    if (!(err instanceof WireError)) throw err;
    throw new OtlpDecodeError(`body is not a valid OTLP ExportMetricsServiceRequest protobuf: ${err.message}`);
  }
}

type Reader<T> = (r: WireReader, end: number) => T;

/** The messages of field `field` up to `end` (other fields skipped). */
function repeated<T>(r: WireReader, end: number, field: number, read: Reader<T>): T[] {
  const out: T[] = [];
  const tag = (field << 3) | WIRE_LEN;
  while (r.pos < end) {
    const t = r.uint32(end);
    if (t === tag) out.push(read(r, r.lengthEnd(end)));
    else r.skip(t & 7, end);
  }
  return out;
}

/** A message's fields: `on(field tag)` reads the ones it knows and returns false for the rest (skipped). */
function fields(r: WireReader, end: number, on: (tag: number) => boolean): void {
  while (r.pos < end) {
    const t = r.uint32(end);
    if (!on(t)) r.skip(t & 7, end);
  }
}

const keyValues: Reader<OtlpKeyValue[]> = (r, end) => repeated(r, end, 1, (rr, e) => readKeyValue(rr, e, 0));

function resourceMetrics(r: WireReader, end: number): NonNullable<PbMetricsRequest['resourceMetrics']>[number] {
  let resource: { attributes: OtlpKeyValue[] } | null = null;
  const scopeMetrics: NonNullable<NonNullable<PbMetricsRequest['resourceMetrics']>[number]['scopeMetrics']> = [];
  fields(r, end, (t) => {
    if (t === ((1 << 3) | WIRE_LEN)) resource = { attributes: keyValues(r, r.lengthEnd(end)) };
    else if (t === ((2 << 3) | WIRE_LEN)) scopeMetrics.push(scope(r, r.lengthEnd(end)));
    else return false;
    return true;
  });
  return { resource, scopeMetrics };
}

function scope(r: WireReader, end: number) {
  let attributes: OtlpKeyValue[] = [];
  const metrics: PbMetric[] = [];
  fields(r, end, (t) => {
    if (t === ((1 << 3) | WIRE_LEN)) {
      // InstrumentationScope: name 1, version 2, attributes 3.
      const to = r.lengthEnd(end);
      attributes = [];
      fields(r, to, (u) => {
        if (u !== ((3 << 3) | WIRE_LEN)) return false;
        attributes.push(readKeyValue(r, r.lengthEnd(to), 0));
        return true;
      });
    } else if (t === ((2 << 3) | WIRE_LEN)) metrics.push(metric(r, r.lengthEnd(end)));
    else return false;
    return true;
  });
  return { scope: { attributes }, metrics };
}

function metric(r: WireReader, end: number): PbMetric {
  const m: PbMetric = { name: '', description: '', unit: '' };
  fields(r, end, (t) => {
    switch (t) {
      case (1 << 3) | WIRE_LEN:
        m.name = r.string(end);
        return true;
      case (2 << 3) | WIRE_LEN:
        m.description = r.string(end);
        return true;
      case (3 << 3) | WIRE_LEN:
        m.unit = r.string(end);
        return true;
      case (5 << 3) | WIRE_LEN:
        m.gauge = dataPointsOf(r, r.lengthEnd(end), numberPoint);
        return true;
      case (7 << 3) | WIRE_LEN:
        m.sum = dataPointsOf(r, r.lengthEnd(end), numberPoint);
        return true;
      case (9 << 3) | WIRE_LEN:
        m.histogram = dataPointsOf(r, r.lengthEnd(end), histogramPoint);
        return true;
      case (10 << 3) | WIRE_LEN:
        m.exponentialHistogram = dataPointsOf(r, r.lengthEnd(end), expHistogramPoint);
        return true;
      case (11 << 3) | WIRE_LEN:
        m.summary = dataPointsOf(r, r.lengthEnd(end), summaryPoint);
        return true;
    }
    return false;
  });
  return m;
}

/** Gauge, Sum, Histogram, ExponentialHistogram, Summary: data points 1, temporality 2, monotonic 3. */
function dataPointsOf<P>(r: WireReader, end: number, read: Reader<P>) {
  const out = { dataPoints: [] as P[], aggregationTemporality: 0, isMonotonic: false };
  fields(r, end, (t) => {
    if (t === ((1 << 3) | WIRE_LEN)) out.dataPoints.push(read(r, r.lengthEnd(end)));
    else if (t === ((2 << 3) | WIRE_VARINT)) out.aggregationTemporality = r.uint32(end) | 0;
    else if (t === ((3 << 3) | WIRE_VARINT)) out.isMonotonic = r.uint32(end) !== 0;
    else return false;
    return true;
  });
  return out;
}

interface PointFields {
  attributes?: unknown;
  startTimeUnixNano?: unknown;
  timeUnixNano?: unknown;
  count?: unknown;
  sum?: number | null;
  flags?: number | null;
}

/**
 * The fields points share, by their numbers in this point type (`attrs`, `flags`): attributes,
 * start time 2 and time 3, and with `counted` count 4 and sum 5 (histograms and summaries).
 * False for any other field.
 */
function pointField(
  r: WireReader,
  end: number,
  t: number,
  p: PointFields,
  attributes: OtlpKeyValue[],
  at: { attrs: number; flags: number; counted: boolean },
): boolean {
  switch (t) {
    case (at.attrs << 3) | WIRE_LEN:
      attributes.push(readKeyValue(r, r.lengthEnd(end), 0));
      return true;
    case (2 << 3) | WIRE_FIXED64:
      p.startTimeUnixNano = r.fixed64(end);
      return true;
    case (3 << 3) | WIRE_FIXED64:
      p.timeUnixNano = r.fixed64(end);
      return true;
    case (at.flags << 3) | WIRE_VARINT:
      p.flags = r.uint32(end);
      return true;
  }
  if (!at.counted) return false;
  if (t === ((4 << 3) | WIRE_FIXED64)) p.count = r.fixed64(end);
  else if (t === ((5 << 3) | WIRE_FIXED64)) p.sum = r.double(end);
  else return false;
  return true;
}

/** Where each point type has its attributes and flags (OTLP metrics.proto). */
const NUMBER_POINT = { attrs: 7, flags: 8, counted: false };
const HISTOGRAM_POINT = { attrs: 9, flags: 10, counted: true };
const EXP_HISTOGRAM_POINT = { attrs: 1, flags: 10, counted: true };
const SUMMARY_POINT = { attrs: 7, flags: 8, counted: true };

function numberPoint(r: WireReader, end: number): PbNumberDataPoint {
  const attributes: OtlpKeyValue[] = [];
  const p: PbNumberDataPoint & { attributes: OtlpKeyValue[] } = { attributes, flags: 0 };
  fields(r, end, (t) => {
    if (pointField(r, end, t, p, attributes, NUMBER_POINT)) return true;
    switch (t) {
      case (4 << 3) | WIRE_FIXED64:
        p.asDouble = r.double(end);
        p.asInt = null;
        return true;
      case (6 << 3) | WIRE_FIXED64:
        p.asInt = sfixed64(r, end);
        p.asDouble = null;
        return true;
    }
    return false;
  });
  return p;
}

function histogramPoint(r: WireReader, end: number): PbHistogramDataPoint {
  const attributes: OtlpKeyValue[] = [];
  const bucketCounts: bigint[] = [];
  const explicitBounds: number[] = [];
  const p: PbHistogramDataPoint = { attributes, bucketCounts, explicitBounds, flags: 0 };
  fields(r, end, (t) => {
    if (pointField(r, end, t, p, attributes, HISTOGRAM_POINT)) return true;
    switch (t) {
      case (6 << 3) | WIRE_LEN:
      case (6 << 3) | WIRE_FIXED64:
        packed(r, end, t, WIRE_FIXED64, (to) => bucketCounts.push(r.fixed64(to)));
        return true;
      case (7 << 3) | WIRE_LEN:
      case (7 << 3) | WIRE_FIXED64:
        packed(r, end, t, WIRE_FIXED64, (to) => explicitBounds.push(r.double(to)));
        return true;
      case (11 << 3) | WIRE_FIXED64:
        p.min = r.double(end);
        return true;
      case (12 << 3) | WIRE_FIXED64:
        p.max = r.double(end);
        return true;
    }
    return false;
  });
  return p;
}

function expHistogramPoint(r: WireReader, end: number): PbExpHistogramDataPoint {
  const attributes: OtlpKeyValue[] = [];
  const p: PbExpHistogramDataPoint = { attributes, scale: 0, flags: 0, positive: null, negative: null };
  fields(r, end, (t) => {
    if (pointField(r, end, t, p, attributes, EXP_HISTOGRAM_POINT)) return true;
    switch (t) {
      case (6 << 3) | WIRE_VARINT:
        p.scale = zigzag(r.uint32(end));
        return true;
      case (7 << 3) | WIRE_FIXED64:
        p.zeroCount = r.fixed64(end);
        return true;
      case (8 << 3) | WIRE_LEN:
        p.positive = buckets(r, r.lengthEnd(end));
        return true;
      case (9 << 3) | WIRE_LEN:
        p.negative = buckets(r, r.lengthEnd(end));
        return true;
      case (12 << 3) | WIRE_FIXED64:
        p.min = r.double(end);
        return true;
      case (13 << 3) | WIRE_FIXED64:
        p.max = r.double(end);
        return true;
    }
    return false;
  });
  return p;
}

function buckets(r: WireReader, end: number): PbBuckets {
  const bucketCounts: bigint[] = [];
  const b: PbBuckets = { offset: 0, bucketCounts };
  fields(r, end, (t) => {
    if (t === ((1 << 3) | WIRE_VARINT)) b.offset = zigzag(r.uint32(end));
    else if (t === ((2 << 3) | WIRE_LEN) || t === ((2 << 3) | WIRE_VARINT))
      packed(r, end, t, WIRE_VARINT, (to) => bucketCounts.push(BigInt.asUintN(64, BigInt(r.int64(to)))));
    else return false;
    return true;
  });
  return b;
}

function summaryPoint(r: WireReader, end: number): PbSummaryDataPoint {
  const attributes: OtlpKeyValue[] = [];
  const quantileValues: { quantile: number; value: number }[] = [];
  const p: PbSummaryDataPoint = { attributes, quantileValues, flags: 0 };
  fields(r, end, (t) => {
    if (pointField(r, end, t, p, attributes, SUMMARY_POINT)) return true;
    switch (t) {
      case (6 << 3) | WIRE_LEN: {
        const to = r.lengthEnd(end);
        const q = { quantile: 0, value: 0 };
        fields(r, to, (u) => {
          if (u === ((1 << 3) | WIRE_FIXED64)) q.quantile = r.double(to);
          else if (u === ((2 << 3) | WIRE_FIXED64)) q.value = r.double(to);
          else return false;
          return true;
        });
        quantileValues.push(q);
        return true;
      }
    }
    return false;
  });
  return p;
}

/** A repeated scalar field, packed (`tag` of wire type LEN) or one element (`wire`): `one` reads an element up to its limit. */
function packed(r: WireReader, end: number, tag: number, wire: number, one: (limit: number) => void): void {
  if ((tag & 7) === wire) {
    one(end);
    return;
  }
  const to = r.lengthEnd(end);
  while (r.pos < to) one(to);
}

const zigzag = (n: number) => (n >>> 1) ^ -(n & 1);

/** An sfixed64 as a number when exact (most are; BigInt arithmetic downstream costs), else a bigint. */
function sfixed64(r: WireReader, end: number): number | bigint {
  const pos = r.pos;
  if (pos + 8 > end) throw new WireError(`index out of range: ${pos} + 8 > ${end}`);
  const hi = r.buf.readInt32LE(pos + 4);
  if (hi >= -0x200000 && hi < 0x200000) {
    r.pos = pos + 8;
    return hi * 4294967296 + r.buf.readUInt32LE(pos);
  }
  return BigInt.asIntN(64, r.fixed64(end));
}
