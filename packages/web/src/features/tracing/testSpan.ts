import type { Span } from '@lantern/shared';

/** A span for unit tests: a 1 ns internal span named after its id, over the whole trace, unless `extra` says otherwise. */
export function testSpan(id: string, children: Span[] = [], extra: Partial<Span> = {}): Span {
  return {
    id,
    traceId: 't',
    projectId: 1,
    system: 'funcs',
    groupId: 'g',
    kind: 'internal',
    name: id,
    displayName: id,
    time: '2024-01-01T00:00:00Z',
    duration: 1,
    durationSelf: 1,
    startPct: 0,
    endPct: 1,
    statusCode: 'unset',
    statusMessage: '',
    attrs: {},
    children,
    ...extra,
  };
}
