// The contract between the PromQL engine and whatever stores the data (ClickHouse/chDB in Lantern):
// the engine asks for series by label matchers over a minute range, once per selector per query.
// Nothing here knows about storage or HTTP.

export type MatchType = '=' | '!=' | '=~' | '!~';
/** Regexes are fully anchored, RE2 syntax. */
export interface LabelMatcher {
  name: string;
  type: MatchType;
  value: string;
}
/** Includes __name__ for raw series. */
export type Labels = Record<string, string>;

/** One stored series, as points of one minute each; times are the minute STARTS (Unix ms), ascending. */
export interface SourceSeries {
  labels: Labels;
  /** counter: values are per-minute increases; base = the series' total before times[0] (0 if unknown). gauge: the last value in the minute. */
  kind: 'counter' | 'gauge';
  times: Float64Array;
  values: Float64Array;
  base: number;
}

export interface SelectRequest {
  matchers: LabelMatcher[];
  /** Minutes whose START lies in [startMs, endMs) are wanted; both minute-aligned. */
  startMs: number;
  endMs: number;
  /**
   * Push-down: when set, the source sums counters per minute across the series of each group
   * (group = the values of `labels`, or of all labels but `labels` and __name__ when `without`) and returns
   * one series per group (labels = the group's labels, no __name__, kind 'counter', base 0).
   * The engine only asks this where the answer is exactly the same (sum/rate/increase over counters).
   * If the matched series turn out not to be counters, the source returns them unsummed and sets `pushedDown: false` on the result.
   */
  sumBy?: { without: boolean; labels: string[] };
  /** True when raw counter values are needed (base must be computed); false lets the source skip it. */
  needBase: boolean;
}
export interface SelectResult {
  series: SourceSeries[];
  pushedDown: boolean;
}

export interface PromSource {
  select(req: SelectRequest, signal: AbortSignal): Promise<SelectResult>;
}

/** Thrown by a source (or the engine) when a query touches more series than allowed. */
export class SeriesLimitError extends Error {
  override name = 'SeriesLimitError';
}
