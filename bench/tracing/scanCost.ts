import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { SqlFragment } from '../../packages/server/src/storage/sql';
import { openSpanBytesStore } from './benchStore';

/**
 * What a codec costs the reads that decompress whole columns (issue 17, item 2): the same SQL on a
 * store, the median of 9 runs each after one warm-up. chDB binds one data directory per process:
 * run it on the old and the new store in turns.
 *
 *   node --import tsx bench/tracing/scanCost.ts --dir /tmp/b17-q-old/ch --label old
 */
const { values: args } = parseArgs({ options: { dir: { type: 'string' }, label: { type: 'string', default: '' } } });
if (!args.dir) throw new Error('--dir <data_dir>/ch is required');
const QUERIES: [string, string][] = [
  [
    'user, all',
    "SELECT count(), max(duration) FROM spans_index WHERE project_id = 1 AND attr_values[indexOf(attr_keys, 'enduser.id')] = 'user-42'",
  ],
  [
    'route, all',
    "SELECT count(), max(duration) FROM spans_index WHERE project_id = 1 AND attr_values[indexOf(attr_keys, 'http.route')] = '/api/v1/resource7'",
  ],
  [
    'route, http',
    "SELECT count(), max(duration) FROM spans_index WHERE project_id = 1 AND type = 'http' AND attr_values[indexOf(attr_keys, 'http.route')] = '/api/v1/resource7'",
  ],
  ['host, all', "SELECT count(), max(duration) FROM spans_index WHERE project_id = 1 AND host_name = 'host-7'"],
  [
    'page 1h http',
    "SELECT trace_id, id FROM spans_index WHERE project_id = 1 AND type = 'http' AND time >= (SELECT max(time) FROM spans_index) - INTERVAL 1 HOUR ORDER BY duration DESC LIMIT 10",
  ],
  [
    'status 24h',
    "SELECT system, countIf(status_code = 'error') AS e FROM spans_index WHERE project_id = 1 GROUP BY system",
  ],
  [
    'groups 24h',
    'SELECT sum(c), sum(q[1]), max(length(d)) FROM (SELECT group_id, count() AS c, quantilesTDigest(0.5, 0.9)(duration) AS q, any(display_name) AS d FROM spans_index WHERE project_id = 1 GROUP BY group_id)',
  ],
];
// Our own constant SQL: no user input.
const raw = (text: string): SqlFragment => ({ kind: 'fragment', parts: [text], values: [] });
const store = openSpanBytesStore(args.dir);
const out: string[] = [];
try {
  for (const [name, q] of QUERIES) {
    await store.query(raw(q));
    const ms: number[] = [];
    for (let i = 0; i < 9; i++) {
      const t = performance.now();
      await store.query(raw(q));
      ms.push(performance.now() - t);
    }
    ms.sort((a, b) => a - b);
    out.push(`${name} ${ms[4].toFixed(0)}`);
  }
} finally {
  await store.close();
}
console.log(`${args.label}\t${out.join('\t')}\t(load ${loadavg()[0].toFixed(1)})`);
