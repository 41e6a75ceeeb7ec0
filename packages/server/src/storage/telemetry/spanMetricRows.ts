import type { SpanRow } from './spanRow';

/**
 * Datapoints of metrics from spans as storage takes them: what a request's spans were folded into
 * (metricsFromSpans/ computes them, from the config's definitions), and what the writer needs of
 * the definitions (spanMetricWriter.ts). Storage only writes and journals them; the model that
 * makes them is handed to the store when it is opened (`spanMetrics`).
 */

/**
 * One request's rows folded into datapoints, in a form that crosses threads cheaply: strings and
 * typed arrays, no object per point (a structured clone of an object per point cost about as much
 * as the fold). A point's datapoint line (DATAPOINT_TSV_COLUMNS) is its head, its numbers and its
 * tail; the head also keys its series and minute.
 */
export interface FoldedSpanMetrics {
  /** Per point: `project\tmetric\ttime\thash\tinstrument\t`, the line's first columns. */
  heads: string[];
  /** Per point: `\tstring_keys\tstring_values\tannotations\n`, the line's last columns. */
  tails: string[];
  /** Per point, STAT_FIELDS numbers: project, definition, time (Unix s), count, sum, min, max. */
  stats: Float64Array;
  /** Buckets of point i (histograms): from bucketEnds[i - 1] (0 for the first) to bucketEnds[i]. */
  bucketEnds: Uint32Array;
  /** Representative value -> count of each bucket. */
  bucketValues: Float64Array;
  bucketCounts: Float64Array;
  /** The request's datapoint lines: what a journal keeps of it. */
  lines: string;
}

export const STAT_FIELDS = 7;

/** Positions in a point's stats (STAT_FIELDS of them). */
export const PROJECT = 0;
export const DEF = 1;
export const TIME = 2;
export const COUNT = 3;
export const SUM = 4;
export const MIN = 5;
export const MAX = 6;

/** Points of several requests (and batches) folded together by series and minute. */
export interface SpanMetricFolder {
  readonly size: number;
  add(points: FoldedSpanMetrics): void;
  /** The folded points as one list. */
  points(): FoldedSpanMetrics;
}

/** The catalogue entry (`metrics_catalog`) of a metric from spans. */
export interface SpanMetricCatalogEntry {
  name: string;
  description: string;
  unit: string;
  instrument: string;
  attrKeys: readonly string[];
}

/** What a store needs to write metrics from spans, made from the definitions at start-up. */
export interface SpanMetricsModel {
  /** One entry per definition, at its index (a point's DEF). */
  catalog: readonly SpanMetricCatalogEntry[];
  /** The points of rows that come without them (`insertSpans`: not prepared on a worker); null: none. */
  points(rows: readonly SpanRow[]): FoldedSpanMetrics | null;
  /** A new, empty fold. */
  fold(): SpanMetricFolder;
}
