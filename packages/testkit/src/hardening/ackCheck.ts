import type { TraceRowCounts } from './storeCounts';

/** What a client was told was stored: a trace id and how many rows it must have. */
export interface Acked {
  traceId: string;
  rows: number;
  /** The rows are datapoints (a `metrics-proto` or `prom-write` request), looked up in the metric tables. */
  metrics?: boolean;
  /** A `prom-write` request. */
  prom?: boolean;
}

export interface Lost extends Acked {
  index: number;
  data: number;
  /** Rows counted by the metric from spans (with `derived`). */
  derived?: number;
  /** Datapoints stored, for a metrics request. */
  datapoints?: number;
}

/**
 * Every acknowledged request must have all its rows in both span tables and, with `derived`, its
 * rows counted in the metric derived from spans (the same commit as the spans); a metrics request
 * all its datapoints, exactly once (none of them counted twice, e.g. by a journal inserted again).
 */
export function findLost(acked: readonly Acked[], stored: TraceRowCounts, opts: { derived?: boolean } = {}): Lost[] {
  const lost: Lost[] = [];
  for (const a of acked) {
    if (a.metrics) {
      const datapoints = stored.datapoints.get(a.traceId) ?? 0;
      if (datapoints !== a.rows) lost.push({ ...a, index: 0, data: 0, datapoints });
      continue;
    }
    const index = stored.index.get(a.traceId) ?? 0;
    const data = stored.data.get(a.traceId) ?? 0;
    const derived = stored.derived.get(a.traceId) ?? 0;
    if (index < a.rows || data < a.rows || (opts.derived && derived < a.rows))
      lost.push({ ...a, index, data, ...(opts.derived ? { derived } : {}) });
  }
  return lost;
}
