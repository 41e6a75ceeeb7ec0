import type { AttrMap, SpanRow } from '../spanRow';
import { flattenParams } from './logParams';
import { popMessage } from './logMessage';
import { buildLogRows } from './logRow';
import { logSeed } from './normalizeLogs';
import type { NormalizeOptions } from './options';

/**
 * Vector log events (one JSON object each) → log rows (reference ingest §2.11). The message is
 * the `log.message` field, else `log`/`message`/`msg`; the time is the first RFC 3339 string among
 * `timestamp`, `datetime`, `time`, `date` (else the receive time); every other field becomes an
 * attribute (nested objects flattened), `level`/`severity` give the severity, `trace_id`/`span_id`
 * tie the line to a trace. QUIRK fixed: the reference kept `log.message` among the fields too and
 * stored it twice (as `log.message1`).
 */
const TIME_KEYS = ['timestamp', 'datetime', 'time', 'date'] as const;

export function normalizeVector(
  events: readonly Record<string, unknown>[],
  options: NormalizeOptions,
  receivedNs: bigint,
): SpanRow[] {
  const rows: SpanRow[] = [];
  events.forEach((event, index) => {
    const fields = { ...event };
    let message: string | undefined;
    if (typeof fields['log.message'] === 'string') {
      message = fields['log.message'];
      delete fields['log.message'];
    } else {
      message = popMessage(fields);
    }
    const timeNs = takeTime(fields) ?? receivedNs;
    const attrs: AttrMap = { 'telemetry.sdk.name': 'vector' };
    if (message) attrs['log.message'] = message;
    buildLogRows(
      {
        attrs,
        ownAttrs: {},
        params: flattenParams(fields),
        timeNs,
        traceId: '',
        spanId: 0n,
        seed: logSeed(timeNs, index, message),
      },
      options,
      rows,
    );
  });
  return rows;
}

const RFC3339_RE = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

function takeTime(fields: Record<string, unknown>): bigint | undefined {
  for (const key of TIME_KEYS) {
    const v = fields[key];
    if (typeof v !== 'string') continue;
    const ns = rfc3339ToNs(v);
    if (ns !== undefined) {
      delete fields[key];
      return ns;
    }
  }
  return undefined;
}

/** RFC 3339 with up to nanosecond precision → ns since the epoch (Date alone keeps only ms). */
export function rfc3339ToNs(text: string): bigint | undefined {
  const m = RFC3339_RE.exec(text);
  if (!m) return undefined;
  const ms = Date.parse(text.replace(/\.\d+/, ''));
  if (Number.isNaN(ms)) return undefined;
  const frac = BigInt((m[2] ?? '').padEnd(9, '0'));
  return BigInt(ms) * 1_000_000n + frac;
}
