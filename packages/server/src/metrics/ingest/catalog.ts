import type { TelemetryStore } from '../../storage/telemetry';
import type { MetricInfo } from './datapointRows';

/**
 * Keeps the metric catalogue (name, description, unit, instrument, attribute keys) current
 * (reference ingest §5.4): a metric is written when this process has not written it in the last
 * 15 minutes or when what it knows about it changed. The table folds rows per (project, name), so
 * writing again is harmless. Reports names this process had not seen, so dashboard templates can
 * be installed when their metrics appear.
 */
const REFRESH_MS = 15 * 60_000;
const MAX_ENTRIES = 100_000;

export interface MetricsCatalogWriter {
  /** Writes what needs writing; resolves with the metric names new to this process. */
  record(projectId: number, metrics: readonly MetricInfo[]): Promise<string[]>;
}

interface Written {
  at: number;
  sig: string;
  description: string;
  unit: string;
  attrKeys: readonly string[];
}

function union(a: readonly string[], b: readonly string[]): readonly string[] {
  const extra = b.filter((k) => !a.includes(k));
  return extra.length === 0 ? a : [...a, ...extra].sort();
}

export function createCatalogWriter(store: TelemetryStore, now: () => number = Date.now): MetricsCatalogWriter {
  const seen = new Map<string, Written>();
  return {
    async record(projectId, metrics) {
      const t = now();
      const ts = Math.floor(t / 1000);
      const rows: object[] = [];
      const fresh: string[] = [];
      const marks: [string, Written][] = [];
      for (const m of metrics) {
        const key = `${projectId}\u0000${m.name}`;
        const prev = seen.get(key);
        // Rows of one second tie on `updated_at`, and merges fold a tie by part order: a row
        // without a description or unit written in the same second as one with them (a remote
        // write's samples beside its metadata) carries them, so no merge can blank them. Its
        // attribute keys are the union of the second's, so the latest row of a second is also the
        // longest: the read's tie-break (length) and a merge (part order) pick the same row.
        const sameSecond = prev !== undefined && Math.floor(prev.at / 1000) === ts;
        const description = m.description || (sameSecond ? prev.description : '');
        const unit = m.unit || (sameSecond ? prev.unit : '');
        const attrKeys = sameSecond ? union(prev.attrKeys, m.attrKeys) : m.attrKeys;
        const sig = `${description}\u0000${unit}\u0000${m.instrument}\u0000${attrKeys.join(',')}`;
        if (prev && prev.sig === sig && t - prev.at < REFRESH_MS) continue;
        if (!prev) fresh.push(m.name);
        rows.push({
          project_id: projectId,
          name: m.name,
          description,
          unit,
          instrument: m.instrument,
          attr_keys: attrKeys,
          created_at: ts,
          updated_at: ts,
        });
        marks.push([key, { at: t, sig, description, unit, attrKeys }]);
      }
      if (rows.length === 0) return [];
      await store.insertRows('metrics_catalog', rows);
      // Marked only once written, so a failed write is retried with the next request.
      if (seen.size + marks.length > MAX_ENTRIES) seen.clear();
      for (const [k, v] of marks) seen.set(k, v);
      return fresh;
    },
  };
}
