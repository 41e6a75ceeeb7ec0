import { rm } from 'node:fs/promises';
import { ident, param, sql, type SqlFragment, constant } from '../sql';
import { ROLLUP_STATE_TABLE, rollupColumns } from './metricsSchema';

/**
 * The embedded store's datapoint rollups (`datapoint_15m`, `datapoint_hours`), written by the
 * application from `datapoint_minutes` once per closed window instead of by materialized views on
 * every insert (docs/decisions/datapoint-rollups.md): a views' insert wrote three parts per
 * datapoint batch, this writes one.
 *
 * The watermark W (a whole minute): every datapoint row with time < W is in both rollups, rows
 * with time >= W only in the minutes. `rollUp` (every ROLLUP_INTERVAL_MS) rolls [W, W') up, with
 * W' the current minute less ROLLUP_LAG_MINUTES, in windows within one hour (so within one day's
 * partition), and records W'. A write whose rows are older than W also puts those rows into both
 * rollups (`write`, from one more read of its file: lateRollupInserts): only such late batches pay
 * for the extra inserts. Writes and the job go through one lock, so a row can never land between
 * a window's rollup and its watermark.
 *
 * Crash safety: the window is recorded as pending before its inserts. A pending window found at
 * start (or a window that failed) means the rollups may hold part of it: the watermark goes back
 * to the start of W's hour, rollup rows from there on are deleted, and the job rolls them again
 * from the minutes (what migration 9 does). Queries read rollup rows before W, whose rows a
 * window's inserts can only change in W's hour, so the watermark is lowered in memory first.
 *
 * Readers (`readRollups`) see the watermark and the rollups of one moment: a read that overlapped
 * a window's inserts is run again (a sequence lock; the window is a few ms once a minute).
 */
/**
 * How far the rollups stay behind. Span rows carry their start time and arrive when the span
 * ends, after batching: with 5 minutes most span batches of the ingest bench (traces up to 10
 * minutes old) held late rows and paid two more inserts each (docs/decisions/datapoint-rollups.md).
 */
export const ROLLUP_LAG_MINUTES = 15;
export const ROLLUP_INTERVAL_MS = 60_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const READ_ATTEMPTS = 5;

export type RollupTable = 'datapoint_15m' | 'datapoint_hours';
const PERIODS: Record<RollupTable, string> = {
  datapoint_15m: 'toStartOfFifteenMinutes',
  datapoint_hours: 'toStartOfHour',
};
export const ROLLUP_TABLES = Object.keys(PERIODS) as RollupTable[];

/** The columns of a datapoint line as a file() structure (annotations: the span metrics' lines). */
export const DATAPOINT_STRUCTURE =
  'project_id UInt32, metric String, time DateTime, attrs_hash UInt64, instrument String, min Float64, max Float64, ' +
  'sum Float64, count UInt64, gauge Float64, histogram Tuple(Array(Float64), Array(UInt64)), ' +
  'string_keys Array(String), string_values Array(String)';
export const ANNOTATED_STRUCTURE = `${DATAPOINT_STRUCTURE}, annotations String`;

/** `SELECT <the rollup of table's period of the rows of source> WHERE <where>`, without its settings. `source` has the minutes' columns. */
function rollupSelect(table: RollupTable, source: SqlFragment, where: SqlFragment): SqlFragment {
  const period = PERIODS[table];
  // The gauge of a bucket: its last minute's (the views' anyLast took the last row read).
  return sql`SELECT ${constant(rollupColumns(period, true, 'argMax(gauge, time)'))}
    FROM ${source} WHERE ${where}
    GROUP BY project_id, metric, ${constant(period)}(time), attrs_hash`;
}

/** `INSERT INTO <rollup> SELECT <its rollup of the rows of source> WHERE <where>`. `source` has the minutes' columns. */
export function rollupInsert(
  table: RollupTable,
  source: SqlFragment,
  where: SqlFragment,
  settings?: 'engine_file_empty_if_not_exists = 1',
): SqlFragment {
  return sql`INSERT INTO ${ident(table)} ${rollupSelect(table, source, where)}
    SETTINGS prefer_column_name_to_alias = 1${constant(settings ? `, ${settings}` : '')}`;
}

/**
 * Late rows into both rollups from one read of `source` (docs/decisions/datapoint-rollups.md, "Late
 * rows"): their 15-minute rollup goes into `stage` (Native: read back without parsing), then into
 * `datapoint_15m`, and the hourly rollup is that of the staged 15-minute rows (a quarter hour lies
 * in one hour, and every aggregate of the rollups, argMax(gauge, time) included, gives the same over
 * the quarter hours' results as over their minutes). Reading a batch's TSV and grouping its rows
 * was what a late write cost the engine, twice before.
 */
export function lateRollupInserts(source: SqlFragment, where: SqlFragment, stage: string): SqlFragment[] {
  // With its structure: a select of no rows leaves the file empty (or not made), read as no rows.
  const staged = sql`file(${param.string(stage)}, 'Native', ${param.string(ANNOTATED_STRUCTURE)})`;
  return [
    sql`INSERT INTO FUNCTION ${staged} ${rollupSelect('datapoint_15m', source, where)}
      SETTINGS prefer_column_name_to_alias = 1, engine_file_truncate_on_insert = 1`,
    sql`INSERT INTO datapoint_15m SELECT * FROM ${staged} SETTINGS engine_file_empty_if_not_exists = 1`,
    rollupInsert('datapoint_hours', staged, sql`1`, 'engine_file_empty_if_not_exists = 1'),
  ];
}

type DataFileFormat = 'TSV' | 'RowBinary' | 'JSONEachRow';

/** A file (or glob) of datapoint rows read with the datapoint structure (with annotations or without). */
export function dataFile(path: string, format: DataFileFormat, annotated: boolean): SqlFragment {
  return sql`file(${param.string(path)}, ${param.string(format)}, ${param.string(annotated ? ANNOTATED_STRUCTURE : DATAPOINT_STRUCTURE)})`;
}

/** A file (or glob) of datapoint rows (TSV, RowBinary or JSONEachRow) as a source for rollupInsert. */
export function fileSource(path: string, format: DataFileFormat, annotated: boolean): SqlFragment {
  const file = dataFile(path, format, annotated);
  return annotated ? file : sql`(SELECT *, '' AS annotations FROM ${file})`;
}

export interface DatapointRollups {
  /** The watermark (null: not loaded, i.e. before the migrations; the rollups then are as stored). */
  watermark(): Date | null;
  /** Reads the state (after the migrations); recovers a pending window. */
  load(): Promise<void>;
  /** Rolls every closed window up to `now` less the lag. */
  rollUp(now?: Date): Promise<void>;
  /** Up to the end: every minutes row in the rollups (migrate-storage, Lantern stopped). */
  rollUpAll(): Promise<void>;
  /**
   * A write of datapoint rows: `insert` puts them into the minutes; rows older than the watermark
   * also go into both rollups from `source` (rollupInsert). `minTime` (Unix seconds, null when
   * unknown): a batch with nothing older than the watermark pays nothing more.
   */
  write(insert: () => Promise<unknown>, minTime: number | null, source: () => SqlFragment): Promise<void>;
  /** Runs `read` with the watermark; again if a window was rolled up meanwhile. */
  read<T>(read: (watermark: Date | null) => Promise<T>): Promise<T>;
  /** Starts the job (every intervalMs; 0: never, tests call rollUp). */
  start(intervalMs: number): void;
  /** Stops the job and waits for a running window. */
  stop(): Promise<void>;
}

/**
 * `afterWindowInsert`: a test hook, called between a window's rollup inserts and its watermark
 * record (a throw there is a crash at that point). `lateStage`: the file a late write stages its
 * rows' 15-minute rollup in (lateRollupInserts; removed after; writes are one at a time), needed
 * by `write`.
 */
export function createDatapointRollups(
  run: (q: SqlFragment) => Promise<unknown[]>,
  hooks: { afterWindowInsert?: () => void; lateStage?: string } = {},
): DatapointRollups {
  let watermark: number | null = null;
  let pending = false;
  let seq = 1;
  let epoch = 0; // odd while a window's rows go in
  let timer: NodeJS.Timeout | null = null;
  // The engine's hours (toStartOfHour, its time zone) may start off the UTC hour (+05:30).
  let hourOffset = 0;
  const hourStart = (ms: number) => Math.floor((ms - hourOffset) / HOUR_MS) * HOUR_MS + hourOffset;
  let tail: Promise<unknown> = Promise.resolve();
  const locked = <T>(f: () => Promise<T>): Promise<T> => {
    const result = tail.then(f);
    tail = result.catch(() => undefined);
    return result;
  };

  const record = async (w: number, pendingTo: number) => {
    seq++;
    await run(
      sql`INSERT INTO ${ident(ROLLUP_STATE_TABLE)} (id, seq, watermark, pending_to) VALUES (0, ${param.int64(seq)}, toDateTime(${param.uint32(w / 1000)}), toDateTime(${param.uint32(pendingTo / 1000)}))`,
    );
  };

  /** A window may be in the rollups in part: back to the start of its hour, rolled again from there. */
  const recover = async () => {
    if (watermark === null) return;
    const hour = hourStart(watermark);
    epoch++;
    try {
      watermark = hour;
      for (const t of ROLLUP_TABLES)
        await run(sql`DELETE FROM ${ident(t)} WHERE time >= ${param.secondsUp(new Date(hour))}`);
      await record(hour, 0);
      pending = false;
    } finally {
      epoch++;
    }
  };

  const rollTo = async (target: number) => {
    if (watermark === null) return;
    if (pending) await recover();
    while (watermark < target) {
      const from = watermark;
      const to = Math.min(target, hourStart(from) + HOUR_MS);
      pending = true;
      await record(from, to);
      epoch++;
      try {
        const range = sql`time >= ${param.secondsUp(new Date(from))} AND time < ${param.secondsUp(new Date(to))}`;
        for (const t of ROLLUP_TABLES) await run(rollupInsert(t, sql`datapoint_minutes`, range));
        hooks.afterWindowInsert?.();
        await record(to, 0);
        watermark = to;
        pending = false;
      } catch (err) {
        // Part of the window may be in the rollups: read the minutes from the hour on until recovered.
        watermark = hourStart(from);
        throw err;
      } finally {
        epoch++;
      }
    }
  };

  let running: Promise<void> | null = null;
  return {
    watermark: () => (watermark === null ? null : new Date(watermark)),
    async load() {
      const rows = (await run(
        sql`SELECT toUnixTimestamp(watermark) AS w, toUnixTimestamp(pending_to) AS p, seq FROM ${ident(ROLLUP_STATE_TABLE)} ORDER BY seq DESC LIMIT 1`,
      )) as { w: number | string; p: number | string; seq: number | string }[];
      if (rows.length === 0) return;
      const [tz] = (await run(sql`SELECT toUnixTimestamp(toStartOfHour(now())) % 3600 AS s`)) as {
        s: number | string;
      }[];
      hourOffset = Number(tz.s) * 1000;
      seq = Number(rows[0].seq);
      watermark = Number(rows[0].w) * 1000;
      pending = Number(rows[0].p) > 0;
      if (pending) await locked(recover);
    },
    rollUp: (now = new Date()) =>
      locked(() => rollTo(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS - ROLLUP_LAG_MINUTES * MINUTE_MS)),
    rollUpAll: () =>
      locked(async () => {
        const [max] = (await run(sql`SELECT toUnixTimestamp(max(time)) AS t, count() AS n FROM datapoint_minutes`)) as {
          t: number | string;
          n: number | string;
        }[];
        if (Number(max.n) > 0) await rollTo(Math.floor(Number(max.t) / 60) * MINUTE_MS + MINUTE_MS);
      }),
    write: (insert, minTime, source) =>
      locked(async () => {
        await insert();
        const w = watermark;
        if (w === null || (minTime !== null && minTime * 1000 >= w)) return;
        const stage = hooks.lateStage;
        if (stage === undefined) throw new Error('datapoint rollups: a late write needs a stage file');
        try {
          for (const q of lateRollupInserts(source(), sql`time < ${param.secondsUp(new Date(w))}`, stage)) await run(q);
        } finally {
          await rm(stage, { force: true });
        }
      }),
    async read(read) {
      for (let attempt = 1; ; attempt++) {
        if (epoch % 2 === 1) await locked(async () => undefined);
        const before = epoch;
        const result = await read(watermark === null ? null : new Date(watermark));
        if (epoch === before || attempt >= READ_ATTEMPTS) return result;
      }
    },
    start(intervalMs) {
      if (intervalMs <= 0 || timer) return;
      const tick = () => {
        running = this.rollUp()
          .catch((err: unknown) => console.error(`datapoint rollups: ${(err as Error).message}`))
          .finally(() => {
            running = null;
          });
      };
      tick();
      timer = setInterval(tick, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
