import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Session } from 'chdb';

/**
 * Issue 17, item 5: would ClickHouse's `JSON` type (one sub-column per attribute path) make a
 * filter on an arbitrary attribute cheaper than today's `attr_keys` / `attr_values` arrays, and at
 * what insert and disk cost? Two tables of the same `--rows` generated rows (the `bench/tracing`
 * shape: 3 attributes a row, `http.route` of 40 values, `enduser.id` of 10,000), one with the
 * arrays as spans_index has them, one with `attrs JSON`, filled by the same `INSERT ... SELECT`
 * (the JSON one from the attributes' JSON text, as a TSV or `file()` insert would hand it over);
 * then the groups-shaped aggregate with one attribute filter on each, in turns.
 *
 *   node --import tsx bench/tracing/attrLayout.ts [--rows 10000000] [--rounds 5]
 */
const { values: args } = parseArgs({
  options: { rows: { type: 'string', default: '10000000' }, rounds: { type: 'string', default: '5' } },
});
const rows = Number(args.rows);
const dir = mkdtempSync(join(tmpdir(), 'lantern-attr-layout-'));
const session = new Session(dir);
const timed = (query: string): [string, number] => {
  const t0 = performance.now();
  const out = session.query(query, 'TSV');
  return [out.trim(), performance.now() - t0];
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const key =
  "project_id UInt32, system LowCardinality(String), group_id UInt64, time DateTime64(6, 'UTC'), duration Int64";
const order = 'ENGINE = MergeTree ORDER BY (project_id, system, group_id, time)';
timed(
  `CREATE TABLE arrays (${key}, attr_keys Array(String) CODEC(LZ4), attr_values Array(String) CODEC(ZSTD(3))) ${order}`,
);
timed(`CREATE TABLE json (${key}, attrs JSON(max_dynamic_paths = 256)) ${order}`);
const generated = `SELECT 1 AS project_id, ['http:svc', 'db:postgresql', 'funcs'][1 + cityHash64(number, 1) % 3] AS system,
    cityHash64(number, 2) % 500 AS group_id, now64(6) - number * 0.0086 AS time, cityHash64(number, 3) % 100000 AS duration,
    concat('/api/v1/resource', toString(cityHash64(number, 12) % 40)) AS route, toString(200 + cityHash64(number, 4) % 3 * 100) AS status,
    concat('user-', toString(cityHash64(number, 5) % 10000)) AS user
  FROM numbers(${rows})`;
const [, generateMs] = timed(`SELECT * FROM (${generated}) FORMAT Null`);
const [, arraysInsertMs] = timed(
  `INSERT INTO arrays SELECT project_id, system, group_id, time, duration, ['http.route', 'http.status_code', 'enduser.id'], [route, status, user] FROM (${generated})`,
);
const [, jsonInsertMs] = timed(
  `INSERT INTO json SELECT project_id, system, group_id, time, duration,
     concat('{"http.route":"', route, '","http.status_code":"', status, '","enduser.id":"', user, '"}') FROM (${generated})`,
);
timed('OPTIMIZE TABLE arrays FINAL');
timed('OPTIMIZE TABLE json FINAL');
const [bytes] = timed(
  "SELECT table, sum(data_compressed_bytes), sum(data_uncompressed_bytes) FROM system.parts WHERE active AND table IN ('arrays', 'json') GROUP BY table ORDER BY table",
);
const perRow = (ms: number) => `${(((ms - generateMs) * 1000) / rows).toFixed(2)} µs/row`;
console.log(
  `rows ${rows}, load ${loadavg()[0].toFixed(1)}; insert (generation ${generateMs.toFixed(0)} ms taken off): arrays ${perRow(arraysInsertMs)}, JSON ${perRow(jsonInsertMs)}`,
);
for (const line of bytes.split('\n')) {
  const [table, compressed, uncompressed] = line.split('\t');
  console.log(
    `${table}: ${(Number(compressed) / rows).toFixed(1)} B/row on disk, ${(Number(uncompressed) / rows).toFixed(1)} B/row uncompressed`,
  );
}

const aggregate = 'SELECT group_id, count(), countIf(duration > 50000), quantileTDigest(0.5)(duration) FROM';
const cases: [name: string, attr: string, value: string][] = [
  ['route (1 of 40)', 'http.route', '/api/v1/resource7'],
  ['user (1 of 10,000)', 'enduser.id', 'user-42'],
];
for (const [name, attr, value] of cases) {
  const viaArrays = `${aggregate} arrays WHERE attr_values[indexOf(attr_keys, '${attr}')] = '${value}' GROUP BY group_id ORDER BY group_id`;
  const viaJson = `${aggregate} json WHERE attrs.\`${attr}\`.:String = '${value}' GROUP BY group_id ORDER BY group_id`;
  const [a] = timed(viaArrays);
  const [j] = timed(viaJson);
  if (a !== j) throw new Error(`${name}: the two layouts answer differently`);
  const times: Record<'arrays' | 'json', number[]> = { arrays: [], json: [] };
  for (let r = 0; r < Number(args.rounds); r++) {
    times.arrays.push(timed(`${viaArrays} FORMAT Null`)[1]);
    times.json.push(timed(`${viaJson} FORMAT Null`)[1]);
  }
  const [ma, mj] = [median(times.arrays), median(times.json)];
  console.log(
    `${name}: arrays ${ma.toFixed(0)} ms, JSON ${mj.toFixed(0)} ms (JSON / arrays ${(mj / ma).toFixed(2)}), same answer`,
  );
}
console.log(`load after ${loadavg()[0].toFixed(1)}`);
session.cleanup();
rmSync(dir, { recursive: true, force: true });
