// An in-memory PromSource over fixed series: for tests, and as the reference of what a source must
// answer (matchers, the minute range, sumBy push-down, the series limit).
import { matchesLabels } from './matchers';
import {
  SeriesLimitError,
  type Labels,
  type PromSource,
  type SelectRequest,
  type SelectResult,
  type SourceSeries,
} from './source';

function groupOf(labels: Labels, sumBy: NonNullable<SelectRequest['sumBy']>): Labels {
  const out: Labels = {};
  if (sumBy.without) {
    const dropped = new Set([...sumBy.labels, '__name__']);
    for (const [k, v] of Object.entries(labels)) if (!dropped.has(k)) out[k] = v;
  } else {
    for (const l of sumBy.labels) if (labels[l]) out[l] = labels[l];
  }
  return out;
}

export interface MemorySourceOptions {
  maxSeries?: number;
  /** Answer push-down requests (default true). */
  pushDown?: boolean;
}

export class MemorySource implements PromSource {
  readonly requests: SelectRequest[] = [];
  constructor(
    private readonly all: SourceSeries[],
    private readonly opts: MemorySourceOptions = {},
  ) {}

  async select(req: SelectRequest, signal: AbortSignal): Promise<SelectResult> {
    signal.throwIfAborted();
    this.requests.push(req);
    const picked: SourceSeries[] = [];
    for (const s of this.all) {
      if (!req.matchers.every((m) => matchesLabels(s.labels, m))) continue;
      let base = s.base;
      const keep: number[] = [];
      for (let i = 0; i < s.times.length; i++) {
        if (s.times[i] < req.startMs) base += s.kind === 'counter' ? s.values[i] : 0;
        else if (s.times[i] < req.endMs) keep.push(i);
      }
      if (keep.length === 0) continue;
      picked.push({
        labels: s.labels,
        kind: s.kind,
        base: s.kind === 'counter' ? base : 0,
        times: Float64Array.from(keep, (i) => s.times[i]),
        values: Float64Array.from(keep, (i) => s.values[i]),
      });
    }
    if (picked.length > (this.opts.maxSeries ?? Infinity))
      throw new SeriesLimitError(`more than ${this.opts.maxSeries} series`);
    const sumBy = req.sumBy;
    if (!sumBy || this.opts.pushDown === false || picked.some((s) => s.kind !== 'counter'))
      return { series: picked, pushedDown: false };
    const groups = new Map<string, { labels: Labels; byTime: Map<number, number> }>();
    for (const s of picked) {
      const labels = groupOf(s.labels, sumBy);
      const key = JSON.stringify(Object.entries(labels).sort());
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { labels, byTime: new Map() }));
      s.times.forEach((t, i) => g.byTime.set(t, (g.byTime.get(t) ?? 0) + s.values[i]));
    }
    const series = [...groups.values()].map((g): SourceSeries => {
      const times = [...g.byTime.keys()].sort((a, b) => a - b);
      return {
        labels: g.labels,
        kind: 'counter',
        base: 0,
        times: Float64Array.from(times),
        values: Float64Array.from(times, (t) => g.byTime.get(t)!),
      };
    });
    return { series, pushedDown: true };
  }
}

/** A series from minute starts and values, for tests. */
export function series(
  labels: Labels,
  kind: 'counter' | 'gauge',
  startMs: number,
  values: number[],
  base = 0,
): SourceSeries {
  return {
    labels,
    kind,
    base,
    times: Float64Array.from(values, (_v, i) => startMs + i * 60_000),
    values: Float64Array.from(values),
  };
}
