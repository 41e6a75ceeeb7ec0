import type { SpanRow } from './spanRow';

/**
 * A stored span row for tests: a root `GET /` server span of `http:api` (service `api`), 1 ms,
 * status ok, with no events or links; `fields` replace any of it.
 */
export function testSpanRow(fields: Partial<SpanRow> = {}): SpanRow {
  return {
    projectId: 1,
    traceId: 'ab'.repeat(16),
    id: 1n,
    parentId: 0n,
    standalone: false,
    type: 'http',
    system: 'http:api',
    groupId: 5n,
    kind: 'server',
    name: 'GET /',
    eventName: '',
    displayName: 'GET /',
    timeNs: 0n,
    durationNs: 1_000_000,
    statusCode: 'ok',
    statusMessage: '',
    attrs: { 'service.name': 'api' },
    events: [],
    links: [],
    linkCount: 0,
    eventCount: 0,
    eventErrorCount: 0,
    eventLogCount: 0,
    ...fields,
  };
}
