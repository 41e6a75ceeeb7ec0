import { z } from 'zod';

export const SpanKind = z.enum(['internal', 'server', 'client', 'producer', 'consumer']);
export type SpanKind = z.infer<typeof SpanKind>;

export const StatusCode = z.enum(['ok', 'error', 'unset']);
export type StatusCode = z.infer<typeof StatusCode>;

export const AttrValue: z.ZodType<unknown> = z.unknown();
export const Attrs = z.record(z.string(), z.unknown());

export const SpanEvent = z.object({
  name: z.string(),
  time: z.string(),
  attrs: Attrs,
  system: z.string().optional(),
  groupId: z.string().optional(),
});
export type SpanEvent = z.infer<typeof SpanEvent>;

export const SpanLink = z.object({ traceId: z.string(), spanId: z.string(), attrs: Attrs });

/** A span as the API sends it. Ids are strings: 64-bit values never travel as JS numbers. */
export interface Span {
  id: string;
  parentId?: string;
  traceId: string;
  standalone?: boolean;
  projectId: number;
  system: string;
  groupId: string;
  kind: SpanKind;
  name: string;
  eventName?: string;
  displayName: string;
  /**
   * The name of the span's group, as the group list shows it (a log's or a db span's template,
   * where displayName is the row's own text). Set by the span and span list endpoints; the trace
   * endpoint sets it on spans of template-named groups (log and db rows), where the others' group
   * name is their displayName.
   */
  groupName?: string;
  time: string;
  duration: number;
  durationSelf: number;
  startPct: number;
  endPct: number;
  /** Depth in the trace tree (root 0); only set on the trace endpoint. */
  level?: number;
  statusCode: StatusCode;
  statusMessage: string;
  attrs: Record<string, unknown>;
  events?: SpanEvent[];
  links?: z.infer<typeof SpanLink>[];
  children?: Span[];
}

export const Span: z.ZodType<Span> = z.lazy(() =>
  z.object({
    id: z.string(),
    parentId: z.string().optional(),
    traceId: z.string(),
    standalone: z.boolean().optional(),
    projectId: z.number().int(),
    system: z.string(),
    groupId: z.string(),
    kind: SpanKind,
    name: z.string(),
    eventName: z.string().optional(),
    displayName: z.string(),
    groupName: z.string().optional(),
    time: z.string(),
    duration: z.number(),
    durationSelf: z.number(),
    startPct: z.number(),
    endPct: z.number(),
    level: z.number().int().optional(),
    statusCode: StatusCode,
    statusMessage: z.string(),
    attrs: Attrs,
    events: z.array(SpanEvent).optional(),
    links: z.array(SpanLink).optional(),
    children: z.array(Span).optional(),
  }),
);

export const TraceResponse = z.object({
  trace: z.object({ id: z.string(), time: z.string(), duration: z.number() }),
  root: Span,
  numSpan: z.number().int(),
});
export type TraceResponse = z.infer<typeof TraceResponse>;

export const SpanResponse = z.object({ span: Span });
export type SpanResponse = z.infer<typeof SpanResponse>;

export const TraceSearchResponse = z.object({
  span: z.object({
    projectId: z.number().int(),
    traceId: z.string(),
    id: z.string(),
    standalone: z.boolean(),
  }),
});
export type TraceSearchResponse = z.infer<typeof TraceSearchResponse>;
