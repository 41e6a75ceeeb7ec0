import type { Instrument } from '@lantern/shared';
import type { CumHistogram } from './cumulativeState';

/**
 * What the OTLP metrics mapping (normalizeMetrics.ts) gives: datapoint rows, or their identity and
 * the cumulative-to-delta step that gives their values, and what it tells of each metric.
 */

export interface DatapointRow {
  project_id: number;
  metric: string;
  /** Unix seconds, on a minute boundary. */
  time: number;
  /** Decimal UInt64 (never a JS number: it would lose bits). */
  attrs_hash: string;
  instrument: Exclude<Instrument, 'deleted'>;
  min: number;
  max: number;
  sum: number;
  count: number;
  gauge: number;
  histogram: [number[], number[]];
  string_keys: string[];
  string_values: string[];
}

export interface MetricInfo {
  name: string;
  description: string;
  unit: string;
  instrument: Exclude<Instrument, 'deleted'>;
  attrKeys: string[];
}

/** What normalizeMetrics tells besides the rows (those go to its sink). */
export interface NormalizedMetrics {
  metrics: MetricInfo[];
  rejected: number;
  errors: string[];
}

/** The identity and attributes of one row: everything but its values. */
export interface RowBase {
  projectId: number;
  metric: string;
  /** Unix seconds, on a minute boundary. */
  time: number;
  hash: string;
  instrument: DatapointRow['instrument'];
  keys: string[];
  vals: string[];
}

/** A row's values (finite numbers; `histogram` as [values, counts]). */
export type RowValues = Pick<DatapointRow, 'min' | 'max' | 'sum' | 'count' | 'gauge' | 'histogram'>;

/**
 * A point whose values need the cumulative-to-delta state: kept as data, so the step can run on
 * another thread than the mapping (prepareMetrics.ts). `key` is the series key of the state.
 */
export type StatefulStep = StepOp & { key: string; startNs: bigint; timeNs: bigint };

/** What a point's mapping asks of the state (`point` adds the series key and times). */
export type StepOp = { op: 'counter'; v: number } | { op: 'level'; v: number } | { op: 'histogram'; cur: CumHistogram };

/** Where normalizeMetrics puts each row. */
export interface DatapointSink {
  row(base: RowBase, values: RowValues): void;
  stateful(base: RowBase, step: StatefulStep): void;
}
