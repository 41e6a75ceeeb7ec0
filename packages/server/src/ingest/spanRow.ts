// The stored row model lives with storage (storage imports no domain folder); ingest produces it.
export type { AttrMap, AttrValue, SpanEventData, SpanLinkData, SpanRow } from '../storage/telemetry/spanRow';
