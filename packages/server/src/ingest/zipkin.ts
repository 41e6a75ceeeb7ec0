import {
  OtlpDecodeError,
  OtlpSpanKind,
  OtlpStatusCode,
  type OtlpKeyValue,
  type OtlpSpan,
  type OtlpTracesRequest,
} from './otlp';

/**
 * Zipkin JSON v2 (`POST /api/v2/spans`, a JSON array of spans) → the OTLP trace shape, so Zipkin
 * spans go through the same normalisation as OTLP ones (reference ingest §1.5), with the
 * reference's quirks fixed:
 * - ids are read big-endian, like OTLP: the same hex id means the same span on both paths;
 * - endpoint IPs are read (`net.host.ip` / `net.peer.ip`);
 * - annotations become span events (the reference parsed and dropped them);
 * - an `error` tag marks the span failed, as Zipkin instrumentations mean it.
 * Tags become attributes; endpoints fill `service.name`, `net.host.port`, `peer.service`,
 * `net.peer.port` only where no tag set them. A span that cannot be stored (bad ids, wrong field
 * types) is dropped and counted; a body that is not an array refuses the whole request.
 */
export function zipkinToOtlp(body: unknown, receivedNs: bigint): OtlpTracesRequest {
  if (!Array.isArray(body)) throw new OtlpDecodeError('body: expected a JSON array of Zipkin v2 spans');
  let rejected = 0;
  let rejectedMessage = '';
  const spans: OtlpSpan[] = [];
  body.forEach((raw, i) => {
    try {
      spans.push(zipkinSpan(raw, receivedNs));
    } catch (err) {
      if (!(err instanceof OtlpDecodeError)) throw err;
      if (rejected++ === 0) rejectedMessage = `spans[${i}].${err.message}`;
    }
  });
  return {
    resourceSpans: spans.length
      ? [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: '', version: '', attributes: [] }, spans }] }]
      : [],
    rejected,
    rejectedMessage,
  };
}

const KINDS: Record<string, number> = {
  SERVER: OtlpSpanKind.SERVER,
  CLIENT: OtlpSpanKind.CLIENT,
  PRODUCER: OtlpSpanKind.PRODUCER,
  CONSUMER: OtlpSpanKind.CONSUMER,
};
const HEX_RE = /^[0-9a-fA-F]+$/;

function zipkinSpan(raw: unknown, receivedNs: bigint): OtlpSpan {
  const s = obj(raw, '');
  if (!s) throw new OtlpDecodeError('expected a span object');
  const traceId = zipkinId(s.traceId, 'traceId', true);
  const spanId = zipkinId(s.id, 'id', false);
  const parentSpanId =
    s.parentId === undefined || s.parentId === null || s.parentId === '' ? '' : zipkinId(s.parentId, 'parentId', false);
  const startNs = micros(s.timestamp, 'timestamp') * 1000n || receivedNs;
  const durationNs = micros(s.duration, 'duration') * 1000n;

  const attrs = new Map<string, string | number>();
  const tags = obj(s.tags, 'tags') ?? {};
  for (const [k, v] of Object.entries(tags)) {
    if (typeof v === 'string') attrs.set(k, v);
    else if (typeof v === 'number' || typeof v === 'boolean') attrs.set(k, String(v));
  }
  const setDefault = (k: string, v: unknown) => {
    if (attrs.has(k) || v === undefined || v === null || v === '') return;
    if (typeof v === 'string' || typeof v === 'number') attrs.set(k, v);
  };
  const local = obj(s.localEndpoint, 'localEndpoint');
  if (local) {
    setDefault('service.name', local.serviceName);
    setDefault('net.host.ip', local.ipv4 ?? local.ipv6);
    setDefault('net.host.port', local.port);
  }
  const remote = obj(s.remoteEndpoint, 'remoteEndpoint');
  if (remote) {
    setDefault('peer.service', remote.serviceName);
    setDefault('net.peer.ip', remote.ipv4 ?? remote.ipv6);
    setDefault('net.peer.port', remote.port);
  }
  const error = attrs.get('error');

  const annotations = s.annotations === undefined || s.annotations === null ? [] : s.annotations;
  if (!Array.isArray(annotations)) throw new OtlpDecodeError('annotations: expected an array');
  return {
    traceId,
    spanId,
    parentSpanId,
    traceState: '',
    name: str(s.name, 'name'),
    kind: KINDS[str(s.kind, 'kind').toUpperCase()] ?? OtlpSpanKind.INTERNAL,
    startTimeUnixNano: startNs,
    endTimeUnixNano: startNs + durationNs,
    attributes: [...attrs].map(([key, v]): OtlpKeyValue => ({
      key,
      value: typeof v === 'number' ? { intValue: Math.trunc(v) } : { stringValue: v },
    })),
    events: annotations.map((a, i) => {
      const ann = obj(a, `annotations[${i}]`) ?? {};
      return {
        name: str(ann.value, `annotations[${i}].value`),
        timeUnixNano: micros(ann.timestamp, `annotations[${i}].timestamp`) * 1000n,
        attributes: [],
      };
    }),
    links: [],
    status:
      error === undefined
        ? { code: OtlpStatusCode.UNSET, message: '' }
        : { code: OtlpStatusCode.ERROR, message: error === 'true' ? '' : String(error) },
  };
}

/**
 * Zipkin ids are lowercase hex: span ids up to 16 chars, trace ids up to 32, left-padded with zeros
 * as Zipkin's own server does (a 64-bit trace id fills the low 8 bytes). All-zero ids are invalid.
 */
function zipkinId(v: unknown, field: string, trace: boolean): string {
  if (typeof v !== 'string' || !HEX_RE.test(v)) throw new OtlpDecodeError(`${field}: expected a hex string`);
  const want = trace ? 32 : 16;
  if (v.length > want) throw new OtlpDecodeError(`${field}: expected at most ${want} hex chars, got ${v.length}`);
  const hex = v.toLowerCase().padStart(want, '0');
  if (/^0+$/.test(hex)) throw new OtlpDecodeError(`${field}: an all-zero id is invalid`);
  return hex;
}

/** Microseconds as a number or numeric string; absent is 0. */
function micros(v: unknown, field: string): bigint {
  if (v === undefined || v === null) return 0n;
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return BigInt(Math.trunc(v));
  if (typeof v === 'string' && /^\d{1,19}$/.test(v)) return BigInt(v);
  throw new OtlpDecodeError(`${field}: expected microseconds as a non-negative number`);
}

function obj(v: unknown, field: string): Record<string, unknown> | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw new OtlpDecodeError(`${field || 'span'}: expected an object`);
  return v as Record<string, unknown>;
}

function str(v: unknown, field: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new OtlpDecodeError(`${field}: expected a string`);
  return v;
}
