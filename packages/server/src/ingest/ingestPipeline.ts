import type { ProjectConfig } from '../config';
import { AppError } from '../http/appError';
import { BatcherClosedError, QueueFullError, type Batcher } from './batcher';
import type { IngestSignal, IngestStats } from './ingestStats';
import { OtlpDecodeError } from './otlp';
import type { PartialSuccess } from './otlpResponse';
import type { BodyFormat } from './requestBody';
import type { SpanRow } from './spanRow';

/**
 * The transport-independent end of every ingest path (OTLP traces and logs over HTTP and gRPC,
 * Zipkin, Vector): decode + normalise (the `produce` step), check the per-request row cap, then
 * wait for the batch holding the rows to be committed. Success is answered only after commit;
 * records dropped as invalid come back as a partial success. Every outcome is counted.
 */
export interface Produced {
  rows: SpanRow[];
  /** Records dropped as invalid (not stored), for OTLP partial_success. */
  rejected: number;
  rejectedMessage: string;
}

/** One signal's ingest: the project it writes to, the body format and the decoded body bytes. */
export type SignalIngest = (project: ProjectConfig, format: BodyFormat, body: Buffer) => Promise<PartialSuccess | null>;

export interface IngestPipeline {
  run(signal: IngestSignal, bytes: number, produce: () => Produced): Promise<PartialSuccess | null>;
  /** Counts a request refused before decoding (bad auth, content type, encoding, size). */
  refused(signal: IngestSignal): void;
}

export function createIngestPipeline(deps: { batcher: Batcher; stats: IngestStats; maxRowsPerRequest: number }): IngestPipeline {
  const { batcher, stats } = deps;
  return {
    refused(signal) {
      stats.signal(signal).rejectedRequests++;
    },
    async run(signal, bytes, produce) {
      const counters = stats.signal(signal);
      let produced: Produced;
      try {
        produced = produce();
      } catch (err) {
        counters.rejectedRequests++;
        if (err instanceof OtlpDecodeError) throw new AppError('invalid_input', 'invalid_otlp', err.message);
        throw err;
      }
      const { rows, rejected, rejectedMessage } = produced;
      counters.rejectedRows += rejected;
      if (rows.length > deps.maxRowsPerRequest) {
        counters.rejectedRows += rows.length;
        // Refused whole rather than cut: a partial write the client cannot see is worse.
        throw new AppError('too_large', 'too_many_rows', `the request holds ${rows.length} rows; at most ${deps.maxRowsPerRequest} are taken per request (send smaller batches)`);
      }
      try {
        await batcher.submit(rows, bytes);
      } catch (err) {
        if (err instanceof QueueFullError) {
          counters.throttledRows += rows.length;
          throw new AppError('rate_limited', 'queue_full', err.message, err.retryAfterSec);
        }
        counters.failedRows += rows.length;
        if (err instanceof BatcherClosedError) throw new AppError('unavailable', 'shutting_down', err.message, 5);
        // A failed write: the client must retry; nothing is reported as stored.
        throw new AppError('unavailable', 'storage_unavailable', `rows could not be stored: ${(err as Error).message}`, 1);
      }
      counters.acceptedRows += rows.length;
      return rejected > 0 ? { rejected, message: rejectedMessage } : null;
    },
  };
}
