import type { IngestSignalStats, IngestStatsResponse } from '@lantern/shared';
import type { BatcherStats } from './batcher';

/**
 * Self-telemetry of ingest: per-signal counters of accepted, rejected, throttled and failed rows,
 * plus the queue depth, for `GET /api/v1/internal/stats` and the server's once-a-minute log line.
 * Plain counters in memory; they restart at zero with the process.
 */
export type IngestSignal = 'traces' | 'logs' | 'metrics';

export class IngestStats {
  private readonly startedAt = new Date().toISOString();
  private readonly signals = new Map<string, IngestSignalStats>();

  constructor(
    private readonly queue: BatcherStats,
    private readonly limits: { maxRows: number; maxBytes: number },
  ) {}

  signal(name: IngestSignal): IngestSignalStats {
    let s = this.signals.get(name);
    if (!s) {
      s = {
        acceptedRows: 0,
        rejectedRows: 0,
        throttledRows: 0,
        throttledRequests: 0,
        failedRows: 0,
        rejectedRequests: 0,
      };
      this.signals.set(name, s);
    }
    return s;
  }

  snapshot(): IngestStatsResponse {
    return {
      startedAt: this.startedAt,
      queue: { rows: this.queue.queuedRows, bytes: this.queue.queuedBytes, ...this.limits },
      signals: Object.fromEntries([...this.signals].map(([k, v]) => [k, { ...v }])),
    };
  }
}
