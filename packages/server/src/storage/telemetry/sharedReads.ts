import { compile } from '../sql';
import type { TelemetryStore } from './telemetryStore';

/**
 * Identical reads in flight at the same time share one engine call. A dashboard asks for the same
 * series more than once when it loads (a chart of requests by host and a table of hosts compile to
 * the same SQL), and the embedded engine runs parameterised queries one at a time, so each
 * duplicate would add its whole cost to the page's wait.
 *
 * A read joins another only while that one is in flight, and every write through this store ends
 * the sharing of the reads that started before it: a caller that has written and then reads
 * always gets a read issued after its write. Each caller gets rows of its own (the extra callers
 * a structured clone), so no caller sees another's changes to them.
 */
export function shareIdenticalReads(store: TelemetryStore): TelemetryStore {
  const inFlight = new Map<string, { rows: Promise<unknown[]>; waiters: number }>();
  const afterWrite = async <R>(write: Promise<R>): Promise<R> => {
    try {
      return await write;
    } finally {
      inFlight.clear();
    }
  };

  return {
    ...store,
    query<T>(q: Parameters<TelemetryStore['query']>[0]): Promise<T[]> {
      const { text, params } = compile(q);
      const key = `${text}\u0000${JSON.stringify(params)}`;
      let entry = inFlight.get(key);
      if (!entry) {
        const rows = store.query(q);
        const created = { rows, waiters: 0 };
        entry = created;
        inFlight.set(key, created);
        // Settled: later reads run again (registered first, so no caller joins a settled read).
        const forget = () => {
          if (inFlight.get(key) === created) inFlight.delete(key);
        };
        rows.then(forget, forget);
      }
      const shared = entry;
      shared.waiters++;
      // The callbacks run in the order they were registered, all before any caller resumes: the
      // last one takes the rows, the others clones.
      return shared.rows.then((rows) => (--shared.waiters > 0 ? structuredClone(rows) : rows) as T[]);
    },
    command: (q) => afterWrite(store.command(q)),
    insertSpans: (rows) => afterWrite(store.insertSpans(rows)),
    insertStagedSpans: (chunks) => afterWrite(store.insertStagedSpans(chunks)),
    insertStagedDatapoints: (chunks) => afterWrite(store.insertStagedDatapoints(chunks)),
    insertRows: (table, rows) => afterWrite(store.insertRows(table, rows)),
    rollUp: (now) => afterWrite(store.rollUp(now)),
    rollUpAll: () => afterWrite(store.rollUpAll()),
    migrate: () => afterWrite(store.migrate()),
  };
}
