// Preloaded into the server with NODE_OPTIONS="--import=<this file>" and LANTERN_BENCH_TRACE_DIR
// set: records every chDB query of the server's session (start, end, first words) and samples the
// engine's state every 2 s (LANTERN_BENCH_TRACE_MS) (active parts per table, merges running, the insert-delay
// counters), into <dir>/chdb.<pid>.jsonl. To see where an ingest run's time goes inside the one
// session, which runs one query at a time. Plain JS: it runs before tsx is loaded.
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const dir = process.env.LANTERN_BENCH_TRACE_DIR;
if (dir && /main\.ts$/.test(process.argv[1] ?? '')) {
  const require = createRequire(join(process.cwd(), 'package.json'));
  const { Session } = require('chdb');
  const file = join(dir, `chdb.${process.pid}.jsonl`);
  const t0 = performance.now();
  const now = () => Math.round((performance.now() - t0) * 10) / 10;
  let lines = [];
  const flush = () => {
    if (lines.length) appendFileSync(file, lines.join('\n') + '\n');
    lines = [];
  };
  const log = (o) => lines.push(JSON.stringify(o));
  let session = null;
  let sampling = null;
  const origQuery = Session.prototype.queryAsync;
  const wrap = (name) => {
    const orig = Session.prototype[name];
    Session.prototype[name] = function (sql, ...rest) {
      // eslint-disable-next-line @typescript-eslint/no-this-alias
      session ??= this;
      const start = now();
      const what = typeof sql === 'string' ? sql.replace(/\s+/g, ' ').slice(0, 70) : name;
      const done = (ok) => log({ q: what, start, end: now(), ok });
      const p = orig.call(this, sql, ...rest);
      p.then(
        () => done(true),
        () => done(false),
      );
      return p;
    };
  };
  wrap('queryAsync');
  wrap('queryBindAsync');
  const origInsert = Session.prototype.insert;
  Session.prototype.insert = function (opts) {
    const start = now();
    const p = origInsert.call(this, opts);
    Promise.resolve(p).then(
      () => log({ q: `insert ${opts?.table}`, start, end: now(), ok: true }),
      () => log({ q: `insert ${opts?.table}`, start, end: now(), ok: false }),
    );
    return p;
  };
  // Closing the session while a sample query is in flight hangs the process: close after it.
  let closed = false;
  const origClose = Session.prototype.close;
  Session.prototype.close = function () {
    closed = true;
    if (sampling) void sampling.finally(() => origClose.call(this));
    else origClose.call(this);
  };
  const SAMPLE =
    "SELECT 'parts' AS k, table AS name, toString(count()) AS v FROM system.parts WHERE active GROUP BY table " +
    "UNION ALL SELECT 'merges', table, toString(count()) FROM system.merges GROUP BY table " +
    "UNION ALL SELECT 'event', event, toString(value) FROM system.events WHERE event IN ('DelayedInserts', 'DelayedInsertsMilliseconds', 'RejectedInserts', 'MergedRows', 'Merge', 'InsertedRows', 'InsertQuery', 'FileOpen', 'DiskWriteElapsedMicroseconds', 'OSIOWaitMicroseconds', 'OSCPUWaitMicroseconds') " +
    "UNION ALL SELECT 'metric', metric, toString(value) FROM system.metrics WHERE metric IN ('BackgroundMergesAndMutationsPoolTask', 'BackgroundMergesAndMutationsPoolSize', 'DelayedInserts', 'PartsActive', 'PartsOutdated')";
  const timer = setInterval(
    async () => {
      if (!session || sampling || closed) return;
      const start = now();
      try {
        sampling = origQuery.call(session, SAMPLE, { format: 'JSONEachRow' });
        const res = await sampling;
        log({
          sample: start,
          end: now(),
          rows: res
            .text()
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l)),
        });
      } catch (err) {
        log({ sample: start, error: String(err?.message ?? err).slice(0, 200) });
      } finally {
        sampling = null;
      }
      flush();
    },
    Number(process.env.LANTERN_BENCH_TRACE_MS) || 2000,
  );
  timer.unref();
  process.on('exit', flush);
}
