import { z } from 'zod';
import { route } from './contract';
import { MAX_TEXT_LENGTH, tooLong } from './textLimits';
import { Span } from './tracing';

/**
 * The live tail of logs and spans (`GET /api/v1/tracing/{projectId}/tail`): Server-Sent Events,
 * one event a stored row in the order rows were stored (docs/decisions/live-tail.md).
 *
 * - `event: row` (the default `message` type is not used): `data:` one row, the span list's row
 *   shape (`Span`), `id:` its cursor;
 * - `event: skipped`: `data:` `{"skipped": n}`, rows that matched but went over
 *   `tail.max_rows_per_second` and were not sent;
 * - an `id:` line alone: the cursor moved past rows that did not match (no event is dispatched,
 *   but a reconnect resumes from it);
 * - `: heartbeat` comment lines.
 *
 * A reconnect sends the last cursor as `Last-Event-ID` (browsers do it by themselves) and
 * resumes after it: nothing missed, nothing twice, on any node of the deployment.
 */
export const TailParams = z.object({
  /** As the span list's: `all`, `<type>:all`, `spans:all`, `events:all` or an exact system. */
  system: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .optional(),
  /** The query language text; its `where` parts (and search words) apply, the rest are ignored. */
  query: z.string().max(MAX_TEXT_LENGTH, tooLong(MAX_TEXT_LENGTH)).optional(),
});
export type TailParams = z.input<typeof TailParams>;

/** `data:` of an `event: skipped`. */
export const TailSkipped = z.object({ skipped: z.number().int().positive() });
export type TailSkipped = z.infer<typeof TailSkipped>;

/** A cursor: `<arrival in µs since 1970>-<trace id, 32 hex>-<row id, decimal>`. */
export const TAIL_CURSOR = /^(\d{1,17})-([0-9a-f]{32})-(\d{1,20})$/;

export const tailRoutes = {
  tracingTail: route({
    id: 'tracingTail',
    method: 'GET',
    path: '/api/v1/tracing/:projectId/tail',
    query: TailParams,
    response: Span,
    rawResponse: {
      media: ['text/event-stream'],
      description:
        'Server-Sent Events: `event: row` with a row (the span list row shape) as `data:` and its cursor as `id:`; `event: skipped` with `{"skipped": n}` past the rate limit; heartbeat comments. `Last-Event-ID` resumes after a cursor.',
    },
    errors: {
      400: ['invalid_system', 'invalid_query', 'invalid_cursor'],
      404: ['project_not_found'],
      429: ['too_many_streams'],
    },
    summary: 'Live tail: rows (logs, spans, events) as they are stored, filtered by a query',
    tags: ['tracing'],
  }),
};
