import { z } from 'zod';

/** Counters of one ingest signal since the server started (rows = stored rows, incl. event rows). */
export const IngestSignalStats = z.object({
  /** Rows committed to storage (answered with success). */
  acceptedRows: z.number(),
  /** Records dropped as invalid (partial success) or in requests refused as too large. */
  rejectedRows: z.number(),
  /** Rows refused because the queue was full (429 / RESOURCE_EXHAUSTED); the client retries them. */
  throttledRows: z.number(),
  /** Requests refused before decoding because the queue was full (429 / RESOURCE_EXHAUSTED). */
  throttledRequests: z.number(),
  /** Rows whose insert failed (503 / UNAVAILABLE); the client retries them. */
  failedRows: z.number(),
  /** Requests refused before any row was known: bad auth, bad encoding, undecodable bodies. */
  rejectedRequests: z.number(),
});
export type IngestSignalStats = z.infer<typeof IngestSignalStats>;

/** `GET /api/v1/internal/stats`: the server's view of its own ingest. */
export const IngestStatsResponse = z.object({
  startedAt: z.string(),
  queue: z.object({
    rows: z.number(),
    bytes: z.number(),
    maxRows: z.number(),
    maxBytes: z.number(),
  }),
  /** Keyed by signal: `traces`, `logs` (and more as signals are added). */
  signals: z.record(z.string(), IngestSignalStats),
});
export type IngestStatsResponse = z.infer<typeof IngestStatsResponse>;
