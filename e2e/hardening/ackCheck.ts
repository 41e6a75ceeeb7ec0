import type { TraceRowCounts } from './storeCounts';

/** What a client was told was stored: a trace id and how many rows it must have. */
export interface Acked {
  traceId: string;
  rows: number;
}

export interface Lost extends Acked {
  index: number;
  data: number;
}

/** Every acknowledged request must have all its rows in both span tables. */
export function findLost(acked: readonly Acked[], stored: TraceRowCounts): Lost[] {
  const lost: Lost[] = [];
  for (const a of acked) {
    const index = stored.index.get(a.traceId) ?? 0;
    const data = stored.data.get(a.traceId) ?? 0;
    if (index < a.rows || data < a.rows) lost.push({ ...a, index, data });
  }
  return lost;
}
