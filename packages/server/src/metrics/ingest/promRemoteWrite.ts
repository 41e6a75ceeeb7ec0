import { FoldSeries, tsv, type DatapointLines, type StagedDatapoints } from '../../storage/telemetry';
import type { MetricInfo } from './datapointRows';
import { FLAG_LE, FLAG_QUANTILE } from './promKnownSeries';
import type { PromColumns } from './promWriteWire';
import { IdTable } from './idTable';
import { CounterSlab, stepCounter, UNDO_FIELDS, UNKEPT } from './promCounterState';
import { Lru } from './lru';
import { normalizeUnit } from './units';

/**
 * Prometheus remote write 1.0 (`POST /api/v1/prometheus/write`, snappy-compressed
 * `prometheus.WriteRequest`), stored as the OTLP mapping would store the same series sent as OTLP
 * metrics (same metric names, attributes, series hashes, instruments and cumulative-to-delta
 * state). The body is decoded on a prepare worker into columns (promWriteWire.ts); this module
 * holds what spans requests, on the main thread, and makes the rows:
 *
 * - a series typed `counter` by the request's metadata, or untyped and named `*_total`, is a
 *   monotonic cumulative sum (Lantern `counter`). Prometheus sends no start time: a counter's first
 *   sample is its baseline (not counted), and a value below the previous one is a restart, counted
 *   in full from zero, as Prometheus's `increase()` does;
 * - the series of classic histograms and summaries (`*_bucket` with `le`, `*_sum`, `*_count`) are
 *   counters under their own names with their labels (so `rate(x_sum) / rate(x_count)` and per-`le`
 *   rates work); summary quantiles (`quantile` label) and everything else are gauges. A classic
 *   histogram is read as one Lantern histogram by joining these series at read time
 *   (metrics/query/classicHistogram.ts): Prometheus spreads its series over several requests;
 * - labels become attributes (`__name__` is the metric name); staleness markers (NaN) are dropped;
 *   native histograms (remote write field 4) are refused with a count.
 */
const TYPE_COUNTER = 1;
const TYPE_HISTOGRAM = 3;
const TYPE_SUMMARY = 5;

/** A request's series resolved against the state: their entries, and the catalogue's view of its metrics. */
export interface PromPlan {
  /** Per series of the request (PromColumns' index). */
  series: PromSeries[];
  /** The counters among them (their state is locked while the request's commit is pending). */
  counters: PromSeries[];
  metrics: MetricInfo[];
}

/**
 * A series' entry on the main thread, found by its id (PromColumns.ids): its row text, typing,
 * and its counter state, which is the OTLP path's (PromWriteMapper's restarts, then
 * CumulativeState's step) kept as numbers on the entry.
 */
export interface PromSeries {
  name: string;
  hash: string;
  tail: string;
  /** The typing `post` was made for: 1 counter, 0 gauge, -1 none yet. */
  typed: number;
  /** `project \t metric \t` and `\t hash \t instrument \t`: a row's head is pre + minute + post. */
  pre: string;
  post: string;
  /** The fold's series of this typing (its rows are found through it, without a key string). */
  fold: FoldSeries | null;
  /**
   * The counter state, UNDO_FIELDS numbers (promCounterState.ts) at `at` in `slab.v`: the entries of
   * a generation share one array, slots given as they are first kept, so a request's series (a
   * sender lists them in about that order) read it in memory order. A typed array an entry was a
   * cache miss a sample on its first read (~75 % of `rows`: docs/benchmarks.md, "Remote write,
   * seventh round"); numbers as fields before that, a heap object each (fifth round).
   */
  slab: CounterSlab;
  at: number;
  /** The pending request that stepped it, until its commit settles. */
  lock: Promise<void> | null;
  /** The last request (PromUndo.seq) that saved its state for a restore. */
  undoSeq: number;
}

/** The state of the entries a request stepped, as it was before (PromWriteState.restore): UNDO_FIELDS numbers each. */
export interface PromUndo {
  seq: number;
  entries: PromSeries[];
  was: Float64Array;
}
/** About the bytes of a row as text (what the batcher's `queue_bytes` counts). */
const ROW_TEXT_BYTES = 160;
let undoSeq = 0;

/** A request's undo record, to give `rows`. */
export function promUndo(): PromUndo {
  return { seq: ++undoSeq, entries: [], was: new Float64Array(0) };
}

/** Series entries held: two generations of at most half each; an entry not seen for a whole generation goes. */
const SERIES_MAX = 1_000_000;

/** Per-process state of remote write (metadata seen, series and their counters); one per server. */
export class PromWriteState {
  private readonly types = new Lru<number>(100_000);
  private readonly help = new Lru<{ help: string; unit: string }>(100_000);
  /**
   * One string per metric name, shared by its series' entries: `plan` looks each series' name up,
   * and the entries' own copies were a cache miss a sample (docs/benchmarks.md, "Remote write, fifth round").
   */
  private readonly names = new Lru<string>(100_000);
  private young = new IdTable<PromSeries>();
  private old = new IdTable<PromSeries>();
  /** The counter state of the young generation's entries. */
  private slab = new CounterSlab();
  /** A restarted counter's first point counts in full only if it started after this (CumulativeState's rule). */
  private readonly startedAtMs: number;

  /** `startedAtNs`: the process start, as the cumulative state has it; `seriesMax`: entries held (tests: a few). */
  constructor(
    startedAtNs: bigint,
    private readonly seriesMax = SERIES_MAX,
  ) {
    this.startedAtMs = Number((startedAtNs + 999_999n) / 1_000_000n);
  }

  /**
   * Whether every series of the request is held or comes with its text: a worker sends a series'
   * text only the first time; when this state dropped the entry since, the request is decoded
   * again with `full`.
   */
  knows(cols: PromColumns): boolean {
    // Columns come from a structured clone (dictionary-mode properties): read them once.
    const { flags, dictAt, ids } = cols;
    const entries = new Array<PromSeries | undefined>(flags.length);
    for (let s = 0; s < flags.length; s++) {
      const e = this.find(ids[2 * s], ids[2 * s + 1]);
      if (e === undefined && dictAt[s] === dictAt[s + 1]) return false;
      entries[s] = e;
    }
    // For `plan` of the same columns, next (one lookup a series).
    this.found = { cols, entries };
    return true;
  }
  private found: { cols: PromColumns; entries: (PromSeries | undefined)[] } | null = null;

  /** Takes a request's metadata, finds (or adds) its series and types them (call `knows` first, just before). */
  plan(cols: PromColumns, projectId: number): PromPlan {
    for (const m of cols.metadata) {
      if (!m.family) continue;
      this.types.set(`${projectId}\u0000${m.family}`, m.type);
      if (m.help || m.unit) this.help.set(`${projectId}\u0000${m.family}`, { help: m.help, unit: m.unit });
    }
    const { flags: allFlags, ids, dict, dictAt } = cols;
    const n = allFlags.length;
    const series = new Array<PromSeries>(n);
    const plan: PromPlan = { series, counters: [], metrics: [] };
    const found = this.found?.cols === cols ? this.found.entries : null;
    this.found = null;
    for (let s = 0; s < n; s++) series[s] = found?.[s] ?? this.entry(ids, dict, dictAt, s, projectId);
    // Families whose histogram buckets or summary quantiles are in this request: their untyped
    // `_sum` and `_count` are counters too.
    const families = new Set<string>();
    for (let s = 0; s < n; s++) {
      const f = allFlags[s];
      if (f === 0) continue;
      const name = series[s].name;
      if (f & FLAG_LE && name.endsWith('_bucket')) families.add(name.slice(0, -'_bucket'.length));
      if (f & FLAG_QUANTILE) families.add(name);
    }
    const typing = new Map<string, number>();
    const instrumentOf = new Map<string, number>();
    for (let s = 0; s < n; s++) {
      const e = series[s];
      const flags = allFlags[s];
      const memo = flags === 0 ? e.name : `${e.name}\u0000${flags}`;
      let counter = typing.get(memo);
      if (counter === undefined) {
        counter = this.isCounter(projectId, e.name, flags, families) ? 1 : 0;
        typing.set(memo, counter);
        if (!instrumentOf.has(e.name)) instrumentOf.set(e.name, counter);
      }
      if (e.typed !== counter) {
        e.typed = counter;
        e.post = `\t${e.hash}\t${counter ? 'counter' : 'gauge'}\t`;
        e.fold = new FoldSeries(e.pre, e.post, e.tail);
      }
      if (counter) plan.counters.push(e);
    }
    for (const [name, attrKeys] of cols.metricKeys) {
      const meta =
        this.help.get(`${projectId}\u0000${name}`) ??
        this.help.get(`${projectId}\u0000${name.replace(/_(bucket|sum|count|total)$/, '')}`);
      plan.metrics.push({
        name,
        description: meta?.help ?? '',
        unit: normalizeUnit(meta?.unit ?? ''),
        instrument: instrumentOf.get(name) ? 'counter' : 'gauge',
        attrKeys,
      });
    }
    return plan;
  }

  /**
   * Waits until no pending request holds any of the plan's counters, then holds them all; the
   * returned function lets go (call it once the commit has settled and a failed one is restored).
   * As CumulativeState.lockSeries: a request never steps a series against a point that is then
   * taken back.
   */
  async lock(plan: PromPlan): Promise<() => void> {
    for (;;) {
      const held = new Set<Promise<void>>();
      for (const e of plan.counters) if (e.lock) held.add(e.lock);
      if (held.size === 0) break;
      await Promise.all(held);
    }
    let unlock!: () => void;
    const p = new Promise<void>((r) => (unlock = r));
    for (const e of plan.counters) e.lock = p;
    return () => {
      for (const e of plan.counters) if (e.lock === p) e.lock = null;
      unlock();
    };
  }

  /** Puts back the state a request's steps replaced (its commit was refused or failed). */
  restore(undo: PromUndo): void {
    const w = undo.was;
    for (let i = 0; i < undo.entries.length; i++) {
      const e = undo.entries[i];
      const at = i * UNDO_FIELDS;
      const c = e.slab.v;
      for (let k = 0; k < UNDO_FIELDS; k++) c[e.at + k] = w[at + k];
    }
  }

  /**
   * With the plan's counters locked: a counter's sample becomes its delta (a series' first sample
   * is its baseline, dropped; a value below the last one is a restart, counted from zero), a
   * gauge's its value; the rows go into one chunk as columns (the fold journals them as records; a remote store inserts their text). What the
   * steps replace goes to `undo`.
   */
  rows(cols: PromColumns, plan: PromPlan, undo: PromUndo): { chunks: StagedDatapoints[]; rows: number; bytes: number } {
    const { series: of, values, ms: times } = cols;
    const lines: DatapointLines = {
      series: [],
      times: new Float64Array(of.length),
      values: new Float64Array(5 * of.length),
    };
    const rowTimes = lines.times as Float64Array;
    const rowValues = lines.values as Float64Array;
    let minTime = Infinity;
    const entries = plan.series;
    if (undo.was.length < UNDO_FIELDS * plan.counters.length)
      undo.was = new Float64Array(UNDO_FIELDS * plan.counters.length);
    const was = undo.was;
    for (let i = 0; i < of.length; i++) {
      const e = entries[of[i]];
      const v = values[i];
      const ms = times[i];
      const time = Math.floor(ms / 60_000) * 60;
      if (e.typed === 1) {
        if (e.undoSeq !== undo.seq) {
          e.undoSeq = undo.seq;
          const at = UNDO_FIELDS * undo.entries.length;
          undo.entries.push(e);
          const c = e.slab.v;
          for (let k = 0; k < UNDO_FIELDS; k++) was[at + k] = c[e.at + k];
        }
        const delta = stepCounter(e.slab.v, e.at, v, ms, this.startedAtMs);
        if (delta === null) continue;
        const at = 5 * lines.series.length;
        rowValues[at + 2] = delta;
        rowValues[at + 3] = 1;
      } else {
        const at = 5 * lines.series.length;
        rowValues[at] = v;
        rowValues[at + 1] = v;
        rowValues[at + 2] = v;
        rowValues[at + 3] = 1;
        rowValues[at + 4] = v;
      }
      rowTimes[lines.series.length] = time;
      lines.series.push(e.fold!);
      if (time < minTime) minTime = time;
    }
    const rows = lines.series.length;
    if (rows === 0) return { chunks: [], rows: 0, bytes: 0 };
    // The queue's bytes as the rows' text would take (about): the journal holds them as records.
    const bytes = ROW_TEXT_BYTES * rows;
    return { chunks: [{ rows, bytes, file: null, data: null, minTime, lines }], rows, bytes };
  }

  /** The entry of id (hi, lo), kept young; undefined when not held. */
  private find(hi: number, lo: number): PromSeries | undefined {
    const e = this.young.get(hi, lo);
    if (e !== undefined) return e;
    const aged = this.old.get(hi, lo);
    return aged === undefined ? undefined : this.keep(hi, lo, aged);
  }

  /** The entry of the request's series `s`, made from its dict text when new. */
  private entry(ids: Uint32Array, dict: string, dictAt: Int32Array, s: number, projectId: number): PromSeries {
    const hi = ids[2 * s];
    const lo = ids[2 * s + 1];
    const found = this.find(hi, lo);
    if (found !== undefined) return found;
    const info = dict.slice(dictAt[s], dictAt[s + 1]);
    const a = info.indexOf('\u001f');
    const b = info.indexOf('\u001f', a + 1);
    const nameEnd = b + 1 + Number(info.slice(a + 1, b));
    const sliced = info.slice(b + 1, nameEnd);
    const name = this.names.get(sliced) ?? sliced;
    if (name === sliced) this.names.set(name, name);
    const tail = info.slice(nameEnd);
    const pre = `${projectId}\t${tsv(name)}\t`;
    const e: PromSeries = {
      name,
      hash: info.slice(0, a),
      tail,
      typed: -1,
      pre,
      post: '',
      fold: null,
      slab: UNKEPT,
      at: 0,
      lock: null,
      undoSeq: 0,
    };
    return this.keep(hi, lo, e);
  }

  /**
   * Keeps `e` young: a new entry, or one of the old generation, gets a slot in the young slab with
   * its state (a pending request that stepped it reads and restores it there: `rows` and `restore`
   * find the slot through the entry, and nothing awaits between a plan's keep and its reads).
   */
  private keep(hi: number, lo: number, e: PromSeries): PromSeries {
    if (this.young.size >= this.seriesMax / 2) {
      this.old = this.young;
      this.young = new IdTable();
      this.slab = new CounterSlab();
    }
    if (e.slab !== this.slab) {
      const at = this.slab.add();
      const from = e.slab.v;
      const to = this.slab.v;
      for (let k = 0; k < UNDO_FIELDS; k++) to[at + k] = from[e.at + k];
      e.slab = this.slab;
      e.at = at;
    }
    this.young.set(hi, lo, e);
    return e;
  }

  /**
   * Counters: typed so; the `_bucket`, `_sum` and `_count` series of a histogram or summary (typed,
   * or seen with its buckets / quantiles in the request); untyped `*_total`. Quantiles and the
   * rest are gauges.
   */
  private isCounter(projectId: number, name: string, flags: number, families: ReadonlySet<string>): boolean {
    if (flags & FLAG_QUANTILE) return false;
    const own = this.types.get(`${projectId}\u0000${name}`);
    if (own !== undefined && own !== 0) return own === TYPE_COUNTER;
    const family = /^(.*)_(bucket|sum|count)$/.exec(name)?.[1];
    if (family !== undefined) {
      const t = this.types.get(`${projectId}\u0000${family}`);
      if (t === TYPE_HISTOGRAM || t === TYPE_SUMMARY || families.has(family)) return true;
      if (name.endsWith('_bucket') && flags & FLAG_LE) return true;
    }
    return name.endsWith('_total');
  }
}
