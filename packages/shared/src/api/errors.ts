import { z } from 'zod';

/** Every non-2xx answer of the API and of the HTTP ingest endpoints has this body. */
export const ErrorBody = z.object({
  code: z.string(),
  message: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/**
 * The groups endpoint answers a query the backend rejected with the generated query text too,
 * so the UI can show what was sent.
 */
export const QueryErrorBody = ErrorBody.extend({ query: z.string().optional() });
export type QueryErrorBody = z.infer<typeof QueryErrorBody>;
