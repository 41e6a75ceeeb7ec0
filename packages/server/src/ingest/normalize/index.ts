// Normalisation: a decoded OTLP trace request in, storage-ready SpanRows out — system, type,
// group id, display name, cleaned attributes, and span events split into their own rows
// (reference ingest §2). Everything here is pure and synchronous: no I/O, no clock, no randomness.
export { normalizeTraces } from './normalizeTraces';
export { normalizeLogs } from './normalizeLogs';
export type { NormalizeOptions } from './options';
export { cleanAttrKey } from './attrKey';
export { ATTR_VALUE_MAX_BYTES, truncateUtf8 } from './truncate';
